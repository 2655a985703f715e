import PMLoading

/// Passes each transfer through `DownloadGate`. It sits below `PoliteLoader` and the retries, so
/// a request waiting for its host (busy, paused or out of `--rate`) or for its next attempt
/// holds none of the `--jobs` places: those go only to requests that can be sent.
struct GatedLoader: HTTPLoading {
    let gate: DownloadGate
    let base: any HTTPLoading

    func fetch(_ request: HTTPRequest) async throws -> HTTPResponse {
        await gate.admit()
        let response: HTTPResponse
        do {
            response = try await base.fetch(request)
        } catch {
            await gate.failed()
            throw error
        }
        if DownloadGate.holdsBody(response) {
            await gate.arrived()
        } else {
            await gate.failed()
        }
        return response
    }
}
