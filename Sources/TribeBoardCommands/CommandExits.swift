// One command's exit statuses, from one declaration: the errors it stops on (their statuses come
// from the kind table, `ErrorKinds`), the few kinds it documents differently, the statuses its
// report ends with, and what each status means. The catch sites, `--help` and the tests
// (`ExitStatusMappingTests`, against docs/NAME.md) all read it, so they cannot drift apart.

struct CommandExits: Sendable {
    /// The kinds of the errors the command stops on: a whole kind (`remote.notConfigured`) or an
    /// area (`store.`, every kind it starts).
    let errors: [String]
    /// Where the command documents another status than the table's for a kind (`provision --sync`
    /// without a remote is bad usage, not a configuration to fix).
    var overrides: [String: ExitStatus] = [:]
    /// What the run's own report ends with, errors aside (1 for failed rows, 75 for "try later").
    let outcomes: [ExitStatus]
    /// What each status means, in the order `--help` lists them; docs/NAME.md says the same at length.
    let meanings: KeyValuePairs<ExitStatus, String>

    /// The status `error` ends this command with.
    func status(of error: any Error) -> ExitStatus {
        let detail = ErrorDetail.of(error)
        return overrides[detail.kind] ?? detail.kindStatus
    }

    /// Every status the command can end with: success, bad usage (ArgumentParser's), its report's
    /// and its errors'.
    var statuses: Set<ExitStatus> {
        var statuses: Set<ExitStatus> = [.success, .usage]
        statuses.formUnion(outcomes)
        for (kind, rule) in ErrorKinds.statuses where covers(kind) {
            if let override = overrides[kind] { statuses.insert(override) } else { statuses.formUnion(rule.possible) }
        }
        return statuses
    }

    func covers(_ kind: String) -> Bool {
        errors.contains { $0.hasSuffix(".") ? kind.hasPrefix($0) : kind == $0 }
    }

    /// The last line of the command's help: `Exit status: 0 …; 1 …; 64 bad usage; …`.
    var help: String {
        "Exit status: " + meanings.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: "; ") + "."
    }
}

/// A command that declares its exit statuses (`migrate legacy-types` and `container` use `migrate`'s).
protocol DeclaresExits {
    static var exits: CommandExits { get }
}
