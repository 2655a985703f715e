import CurlShim

/// The body of the loop thread: it alone drives the CURLM*, owns every easy handle and
/// resumes each fetch's continuation exactly once (a transfer leaves `active` before its
/// continuation is resumed, so no second path can reach it).
final class CurlMultiLoop {
    private let mailbox: CurlMailbox
    private let multi: UnsafeMutableRawPointer
    private let userAgent: String
    private let certificates: CertificateBundle?
    private let addresses: AddressClassifier
    private let maxSpareHandles: Int
    private var active: [UInt64: CurlTransfer] = [:]
    // Reset easy handles kept for reuse, sparing an allocation per request; each keeps its cache of
    // TLS sessions (libcurl's is per handle), which a later connection it opens to a host resumes.
    private var spareHandles: [UnsafeMutableRawPointer] = []

    init(mailbox: CurlMailbox, userAgent: String, certificates: CertificateBundle?, addresses: AddressClassifier,
         maxSpareHandles: Int) {
        self.addresses = addresses
        self.mailbox = mailbox
        self.multi = mailbox.multi.raw
        self.userAgent = userAgent
        self.certificates = certificates
        self.maxSpareHandles = maxSpareHandles
    }

    func run() {
        var stopReason = HTTPError.cancelled
        while true {
            let inbox = mailbox.takeInbox()
            if inbox.stopping {
                inbox.jobs.forEach { $0.continuation.resume(throwing: HTTPError.cancelled) }
                break
            }
            inbox.cancelled.forEach(cancelTransfer)
            for job in inbox.jobs {
                if inbox.cancelled.contains(job.id) {
                    job.continuation.resume(throwing: HTTPError.cancelled)
                } else {
                    start(job)
                }
            }
            var running: Int32 = 0
            let performed = curl_multi_perform(multi, &running)
            finishCompleted()
            // curl_multi_poll shortens the wait to libcurl's next timer and returns at once on wakeup.
            let polled = performed == CURLM_OK ? curl_multi_poll(multi, nil, 0, 1000, nil) : performed
            if polled != CURLM_OK {
                // Only a corrupted multi handle gets here; fail loudly rather than spin.
                stopReason = .transport(code: Int(polled.rawValue), message: String(cString: curl_multi_strerror(polled)))
                mailbox.stop()
            }
        }
        tearDown(failingWith: stopReason)
    }

    private func start(_ job: CurlJob) {
        guard let easy = spareHandles.popLast() ?? curl_easy_init() else {
            job.continuation.resume(throwing: HTTPError.transport(code: Int(CURLE_OUT_OF_MEMORY.rawValue),
                                                                  message: "curl_easy_init failed"))
            return
        }
        let transfer = CurlTransfer(job: job, easy: easy)
        var failure = transfer.configure(userAgent: userAgent, certificates: certificates, addresses: addresses)
        if failure == nil {
            let added = curl_multi_add_handle(multi, easy)
            if added != CURLM_OK {
                failure = .transport(code: Int(added.rawValue), message: String(cString: curl_multi_strerror(added)))
            }
        }
        if let failure {
            recycle(easy)
            job.continuation.resume(throwing: failure)
        } else {
            active[job.id] = transfer
        }
    }

    private func finishCompleted() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            // Copy out first: the message dies with curl_multi_remove_handle.
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var context: UnsafeMutableRawPointer?
            guard pm_getinfo_private(easy, &context) == CURLE_OK, let context else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            active.removeValue(forKey: transfer.id)
            curl_multi_remove_handle(multi, easy)
            let outcome = transfer.finish(code)
            recycle(easy)
            transfer.continuation.resume(with: outcome)
        }
    }

    private func cancelTransfer(_ id: UInt64) {
        guard let transfer = active.removeValue(forKey: id) else { return }
        curl_multi_remove_handle(multi, transfer.easy)
        recycle(transfer.easy)
        transfer.continuation.resume(throwing: HTTPError.cancelled)
    }

    private func recycle(_ easy: UnsafeMutableRawPointer) {
        // Reset drops every pointer into the transfer (callbacks, header list, error buffer).
        curl_easy_reset(easy)
        if spareHandles.count < maxSpareHandles {
            spareHandles.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
    }

    private func tearDown(failingWith error: HTTPError) {
        for transfer in active.values {
            curl_multi_remove_handle(multi, transfer.easy)
            curl_easy_cleanup(transfer.easy)
            transfer.continuation.resume(throwing: error)
        }
        active.removeAll()
        spareHandles.forEach { curl_easy_cleanup($0) }
        spareHandles.removeAll()
        curl_multi_cleanup(multi)
    }
}
