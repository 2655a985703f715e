import PMLoading

/// Passes each transfer through `DownloadGate`. It sits below `PoliteLoader` and the retries, so
/// a request waiting for its host (busy, paused or out of `--rate`) or for its next attempt
/// holds none of the `--jobs` places: those go only to requests that can be sent.
///
/// A request the host gate let go may then wait here while another request to its host is
/// answered with a `Retry-After`: before it is sent, `hosts` is asked again, so that it is not
/// sent into the pause (it gives its place back and waits the pause out) or to a host that
/// asked for no more requests in this run.
struct GatedLoader: HTTPLoading {
    let gate: DownloadGate
    var hosts: HostGate?
    let base: any HTTPLoading

    init(gate: DownloadGate, hosts: HostGate? = nil, base: any HTTPLoading) {
        self.gate = gate
        self.hosts = hosts
        self.base = base
    }

    func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        let origin = Origin.of(request.url)
        try await admit(origin)
        let response: HTTPResponse
        do {
            response = try await base.fetch(request)
        } catch {
            await gate.failed()
            throw error
        }
        // Before the place goes to the next request, which may be to the same host.
        await hosts?.observe(origin, response: response)
        if DownloadGate.holdsBody(response) {
            await gate.arrived()
        } else {
            await gate.failed()
        }
        return response
    }

    /// Returns holding a download place, once the host still lets the request go.
    private func admit(_ origin: String) async throws {
        while true {
            await gate.admit()
            let pause: Double?
            do {
                pause = try await hosts?.pauseLeft(origin)
            } catch {
                await gate.failed()
                throw error
            }
            guard let pause else { return }
            await gate.failed()
            do {
                try await Task.sleep(for: .seconds(pause))
            } catch {
                throw HTTPError.cancelled
            }
        }
    }
}
