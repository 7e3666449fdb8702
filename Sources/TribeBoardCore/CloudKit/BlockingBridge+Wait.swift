/// Work that cannot fail, run from synchronous code (the command line) off the cooperative pool.
extension BlockingBridge {
    /// Nil only if the task ended without an answer.
    static func wait<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value? {
        try? run { () async throws(CloudKitError) -> Value in await body() }.get()
    }
}
