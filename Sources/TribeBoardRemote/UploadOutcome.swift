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

    /// Why the next command (`ImmediateUpload.nextStep`) is the one to run.
    package var nextReason: String? {
        switch self {
        case .success: return nil
        case .tryLater:
            return "records wait for CloudKit: run it later, or let its cron job or timer do it"
        case .setAside: return "records set aside need a person: see why, fix, then release them"
        case .configuration: return "CloudKit refused the configuration named above: check the key, container and environment"
        }
    }
}
