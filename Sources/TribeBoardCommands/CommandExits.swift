import ArgumentParser

// How a command's exit status is decided, in one declaration per command (ExitTables.swift): the
// error kinds it stops on (their statuses come from `ErrorKind.rule`), the few kinds it documents
// differently, the outcomes of its report, and what each status means in its `--help`.

struct CommandExits: Sendable {
    /// The kinds of the errors the command stops on.
    let errors: [KindSelection]
    /// Where the command documents another status than the table's for a kind (`provision --sync`
    /// without a remote is bad usage, not a configuration to fix).
    var overrides: [ErrorKind: ExitStatus] = [:]
    /// What the run's own report ends with, errors aside (1 for failed rows, 75 for "try later"):
    /// every status of the command's `CommandOutcome`, so the declaration cannot miss one.
    let outcomes: Set<ExitStatus>
    /// What each status means, in the order `--help` lists them; docs/NAME.md says the same at
    /// length.
    let meanings: KeyValuePairs<ExitStatus, String>

    init<Outcome: CommandOutcome>(
        errors: [KindSelection], overrides: [ErrorKind: ExitStatus] = [:], outcomes: Outcome.Type,
        meanings: KeyValuePairs<ExitStatus, String>
    ) {
        self.errors = errors
        self.overrides = overrides
        self.outcomes = Set(Outcome.allCases.map(\.status)).subtracting([.success])
        self.meanings = meanings
    }

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
        for kind in ErrorKind.allCases where covers(kind) {
            if let override = overrides[kind] {
                statuses.insert(override)
            } else {
                statuses.formUnion(kind.rule.possible)
            }
        }
        return statuses
    }

    func covers(_ kind: ErrorKind) -> Bool {
        errors.contains { selection in
            switch selection {
            case .area(let area): kind.area == area
            case .kind(let one): kind == one
            }
        }
    }

    /// The last line of the command's help: `Exit status: 0 …; 1 …; 64 bad usage; …`.
    var help: String {
        "Exit status: " + meanings.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: "; ")
            + "."
    }
}

/// Which error kinds a command stops on: every kind of an area (`store`), or one kind.
enum KindSelection: Sendable {
    case area(ErrorArea)
    case kind(ErrorKind)
}

/// A command that declares its exit statuses (`migrate legacy-types` and `container` use
/// `migrate`'s).
protocol DeclaresExits {
    static var exits: CommandExits { get }
}

/// How a command's own report ends a run, errors aside: each case's status in one exhaustive
/// switch, the only place a command picks a non-error status (`CommandExits.outcomes` lists them).
protocol CommandOutcome: CaseIterable, Sendable {
    var status: ExitStatus { get }
}

extension CommandOutcome {
    /// What `run()` throws to end with this outcome.
    var exitCode: ExitCode { status.exitCode }
}
