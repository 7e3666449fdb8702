import Dispatch
import Synchronization

/// Runs async CloudKit work from the provisioning pipeline, which is synchronous and runs on its
/// own threads (never on the cooperative pool, which blocking could starve).
enum BlockingBridge {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () async throws(CloudKitError) -> Value) -> Result<Value, CloudKitError> {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Value, CloudKitError>?>(nil)
        Task.detached {
            let result: Result<Value, CloudKitError>
            do throws(CloudKitError) { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 } ?? .failure(.network(reason: "the request task ended without an answer"))
    }
}
