/// How a run that uploads records (resync, provision --sync) ended, for its exit status.
package enum UploadOutcome: String, CaseIterable, Encodable, Sendable {
    /// Nothing is left pending.
    case success
    /// Some records are quarantined or in conflict: a person must look (`resync --list`).
    case setAside
    /// The remote was unavailable or throttled, or time ran out: records remain, try later.
    case tryLater
    /// The remote refused the configuration.
    case configuration
}
