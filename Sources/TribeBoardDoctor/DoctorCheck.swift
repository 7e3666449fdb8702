import Foundation
import TribeBoardXcodeProject

/// Failures break creation or sync; warnings only degrade them (or say what was not checked).
public enum DoctorSeverity: String, Sendable, Codable, Comparable, CaseIterable {
    case ok, warning, failure

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// The checklist's sections, in the order they are printed.
public enum DoctorSection: String, Sendable, Codable, CaseIterable {
    case container, fallback, store, remote, creations

    public var title: String {
        switch self {
        case .container: return "Container configuration"
        case .fallback: return "Fallback chain"
        case .store: return "Store"
        case .remote: return "Remote (CloudKit)"
        case .creations: return "Family creations"
        }
    }
}

/// One family named by a finding. Codes are data here (stdout); logs mask them.
public struct DoctorFamilyItem: Sendable, Codable, Equatable {
    public let familyID: String
    public let name: String?
    public let code: String?
    public let detail: String
}

/// One line of the checklist: what was checked, what was found, what to do.
public struct DoctorCheck: Sendable, Codable, Equatable {
    /// Stable, for scripts: `store.integrity`, `container.entitlements`...
    public let id: String
    public let section: DoctorSection
    /// The Xcode target a container finding is about; nil for findings about the whole project.
    public var target: String?
    public var status: DoctorSeverity
    public let checked: String
    public var found: String
    /// What to do; nil when there is nothing to do.
    public var action: String?
    public var locations: [SourceLocation] = []
    /// For findings about many families: how many in all (the sample shows a few).
    public var count: Int?
    public var sample: [DoctorFamilyItem] = []

    public init(_ id: String, _ section: DoctorSection, _ status: DoctorSeverity, checked: String, found: String,
                action: String? = nil, locations: [SourceLocation] = []) {
        self.id = id
        self.section = section
        self.status = status
        self.checked = checked
        self.found = found
        self.action = action
        self.locations = locations
    }
}

/// How many checks ended each way.
public struct DoctorSummary: Sendable, Codable, Equatable {
    public let ok: Int
    public let warnings: Int
    public let failures: Int

    public init(_ checks: [DoctorCheck]) {
        ok = checks.count { $0.status == .ok }
        warnings = checks.count { $0.status == .warning }
        failures = checks.count { $0.status == .failure }
    }
}
