import CurlShim

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

let curlHeaderCallback: pm_data_cb = { data, size, count, ctx in
    let length = size * count
    guard let data, let ctx else { return length }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(ctx).takeUnretainedValue()
    transfer.receiveHeaderLine(UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length))
    return length
}
