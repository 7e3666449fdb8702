import Dispatch
import Synchronization

/// The one bridge from a synchronous pipeline to async CloudKit work: provisioning's code check
/// (`RemoteCodeCheck.holdersWaiting`), made from the threads of its CSV/SQLite/QR pipeline. It
/// blocks its caller, so it must never be called from async code: there it would hold a thread
/// the awaited work itself may need (`noasync` makes the compiler say so).
package enum BlockingBridge {
    @available(*, noasync, message: "blocks the calling thread; await the work instead")
    package static func run<Value: Sendable>(_ body: @escaping @Sendable () async throws(CloudKitError) -> Value) -> Result<Value, CloudKitError> {
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

    /// Work that cannot fail, run from the command line; nil only if the task ended without an answer.
    @available(*, noasync, message: "blocks the calling thread; await the work instead")
    package static func wait<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value? {
        try? run { () async throws(CloudKitError) -> Value in await body() }.get()
    }
}
