// libFuzzer harness for PMObjectStore's readers of S3's XML answers (ListObjectsV2 pages,
// DeleteObjects results, error bodies), through libxml2 with no network, entities or DTD: what
// an object store, or anything that answers in its place, sends back.
// Built by Scripts/fuzz with `swiftc -sanitize=fuzzer,address` against PMObjectStore compiled the
// same way with -enable-testing, as its readers are internal.
import Foundation
@testable import PMObjectStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzS3XML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .success(let page) = S3ListPage.parse(bytes) {
        for object in page.objects { precondition(object.size >= 0, "a listed object with a negative size") }
    }
    _ = S3DeleteDocuments.failures(bytes)
    _ = S3ErrorBody.parse(bytes)
    return 0
}
