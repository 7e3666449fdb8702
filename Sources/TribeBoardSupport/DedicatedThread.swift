import Foundation

/// Blocking work (files, SQLite, the CPU pipelines that reach CloudKit through `BlockingBridge`)
/// awaited from async code on a thread of its own: on the cooperative pool it would hold one of
/// its few threads (two on this machine), which the awaited CloudKit work itself may need.
package enum DedicatedThread {
    package static func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            Thread { continuation.resume(returning: Result { () throws(Failure) -> Value in try body() }) }.start()
        }
        return try result.get()
    }
}
