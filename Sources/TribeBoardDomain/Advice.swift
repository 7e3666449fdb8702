import TribeBoardSupport

/// Every command the toolkit advises, in one place: each case is one piece of advice and builds
/// its command line from the situation that prints it (the store, the family, the container read),
/// quoted so that it runs as printed. Upper-case words (`DIR`, `PATH`, `STORE`) are the operator's
/// to choose; the end-to-end tests (`AdviceAsPrintedTests`) replace only those and run the rest.
package enum Advice: Sendable, Equatable {
    /// One family CloudKit lost: mark it for upload again.
    case reupload(store: String, familyID: String)
    /// Several: the audit's repair marks them all.
    case repairAll(store: String)
    /// What resync's next run would do, now.
    case resync(store: String)
    /// What waits, and what is set aside and why.
    case resyncList(store: String)
    /// The container and environment read, against the app's entitlements.
    case doctorContainer(store: String, container: String?, environment: String?)
    /// A newer family holding an older one's code gets a new one (`STORE` when not this store).
    case recode(familyID: String, store: String?)
    /// A recoded family's card, from the store.
    case reprint(store: String, familyID: String)

    package var words: [String] {
        switch self {
        case .reupload(let store, let id): return ["tribeboard", "resync", "--store", store, "--reupload", id]
        case .repairAll(let store): return ["tribeboard", "audit", "--store", store, "--repair", "--apply", "--out", "DIR"]
        case .resync(let store): return ["tribeboard", "resync", "--store", store]
        case .resyncList(let store): return ["tribeboard", "resync", "--store", store, "--list"]
        case .doctorContainer(let store, let container, let environment):
            return ["tribeboard", "doctor", "--store", store] + (container.map { ["--container", $0] } ?? [])
                + (environment.map { ["--environment", $0] } ?? []) + ["--project", "PATH"]
        case .recode(let id, let store): return ["tribeboard", "recode", id, "--store", store ?? "STORE", "--apply", "--out", "DIR"]
        case .reprint(let store, let id): return ["tribeboard", "sheets", "--store", store, "--family-id", id, "--out", "\(id).pdf"]
        }
    }

    /// The command line, quoted for a POSIX shell (placeholders stay bare).
    package var command: String {
        words.map { Self.placeholders.contains($0) ? $0 : ShellWords.quoted($0) }.joined(separator: " ")
    }

    /// The words an operator replaces before running the command.
    package static let placeholders: Set<String> = ["DIR", "PATH", "STORE"]
}
