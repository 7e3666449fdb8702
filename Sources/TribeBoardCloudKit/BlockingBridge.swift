import Dispatch
import Synchronization

/// The one bridge from a synchronous pipeline to async CloudKit work: provisioning's code check
/// (`RemoteCodeCheck.holdersWaiting`), made from the threads of its CSV/SQLite/QR pipeline. It
/// blocks its caller, so it must never be called from async code: there it would hold a thread
/// the awaited work itself may need (`noasync` makes the compiler say so).
package enum BlockingBridge {
    /// `body`'s value; nil only if its task ended without one.
    @available(*, noasync, message: "blocks the calling thread; await the work instead")
    package static func wait<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value? {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Value?>(nil)
        Task.detached {
            let value = await body()
            outcome.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 }
    }
}
