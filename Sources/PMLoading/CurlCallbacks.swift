import CurlShim
import Foundation

// libcurl callbacks. They run on the loop thread inside curl_multi_perform; `ctx` is the
// transfer's unretained pointer, kept alive by the loop's `active` table while the easy
// handle is in the multi. They capture nothing, as @convention(c) requires.

let curlWriteCallback: pm_data_cb = { data, size, count, ctx in
    let length = size * count
    guard let data, let ctx else { return length }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(ctx).takeUnretainedValue()
    let chunk = UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
    // Returning fewer bytes than offered makes libcurl abort with CURLE_WRITE_ERROR.
    return transfer.receiveBody(chunk) ? length : 0
}

/// Opens the socket for an address the transfer's `AddressRule` allows; refuses others before
/// anything is sent to them (libcurl then tries the name's next address, if any).
let curlOpenSocketCallback: pm_opensocket_cb = { ctx, _, address in
    guard let ctx, let address else { return CURL_SOCKET_BAD }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(ctx).takeUnretainedValue()
    guard transfer.allowsConnection(to: socketAddressBytes(address)) else { return CURL_SOCKET_BAD }
    return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
}

/// Checks the address of the connection a request is about to be sent on, which may be one
/// kept from another transfer (then no socket was opened for this one).
let curlPrereqCallback: pm_prereq_cb = { ctx, primaryIP, _, _, _ in
    guard let ctx, let primaryIP else { return Int32(CURL_PREREQFUNC_ABORT) }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(ctx).takeUnretainedValue()
    guard let bytes = IPAddressText.bytes(String(cString: primaryIP)), transfer.allowsConnection(to: bytes) else {
        return Int32(CURL_PREREQFUNC_ABORT)
    }
    return Int32(CURL_PREREQFUNC_OK)
}

/// The IP address of a `curl_sockaddr`, whose `addr` libcurl backs with storage for any family.
private func socketAddressBytes(_ address: UnsafeMutablePointer<curl_sockaddr>) -> [UInt8] {
    guard let offset = MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr) else { return [] }
    let raw = UnsafeRawPointer(address) + offset
    switch address.pointee.family {
    case AF_INET:
        let host = raw.loadUnaligned(as: sockaddr_in.self).sin_addr
        return withUnsafeBytes(of: host) { Array($0) }
    case AF_INET6:
        let host = raw.loadUnaligned(as: sockaddr_in6.self).sin6_addr
        return withUnsafeBytes(of: host) { Array($0) }
    default:
        return []
    }
}

let curlHeaderCallback: pm_data_cb = { data, size, count, ctx in
    let length = size * count
    guard let data, let ctx else { return length }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(ctx).takeUnretainedValue()
    transfer.receiveHeaderLine(UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length))
    return length
}
