import Foundation
import TribeBoardXcodeProject

/// Failures break creation or sync; warnings only degrade them (or say what was not checked).
package enum DoctorSeverity: String, Sendable, Codable, Comparable, CaseIterable {
    case ok, warning, failure

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// The checklist's sections, in the order they are printed.
package enum DoctorSection: String, Sendable, Codable, CaseIterable {
    case container, fallback, store, remote, creations

    package var title: String {
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
package struct DoctorFamilyItem: Sendable, Codable, Equatable {
    package let familyID: String
    package let name: String?
    package let code: String?
    package let detail: String
}

/// One line of the checklist: what was checked, what was found, what to do.
package struct DoctorCheck: Sendable, Codable, Equatable {
    /// Stable, for scripts: `store.integrity`, `container.entitlements`...
    package let id: DoctorCheckID
    package let section: DoctorSection
    /// The Xcode target a container finding is about; nil for findings about the whole project.
    package var target: String?
    package var status: DoctorSeverity
    package let checked: String
    package var found: String
    /// What to do; nil when there is nothing to do.
    package var action: String?
    package var locations: [SourceLocation] = []
    /// For findings about many families: how many in all (the sample shows a few).
    package var count: Int?
    package var sample: [DoctorFamilyItem] = []

    package init(
        _ id: DoctorCheckID, _ section: DoctorSection, _ status: DoctorSeverity, checked: String,
        found: String,
        action: String? = nil, locations: [SourceLocation] = []
    ) {
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
package struct DoctorSummary: Sendable, Codable, Equatable {
    package let ok: Int
    package let warnings: Int
    package let failures: Int

    package init(_ checks: [DoctorCheck]) {
        ok = checks.count { $0.status == .ok }
        warnings = checks.count { $0.status == .warning }
        failures = checks.count { $0.status == .failure }
    }
}
