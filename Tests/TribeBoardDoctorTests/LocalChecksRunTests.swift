import Foundation
import Logging
import Testing
import TribeBoardProjectFixtures
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardDoctor

/// A check written but never run (its `DoctorCheck` made in its section's file, its id in the
/// catalogue and docs/doctor.md, but left out of the section's list) passes `CheckIDUseTests`,
/// which reads the source. Here the local sections run over the stores doctor's tests use
/// (missing, damaged, healthy, a killed creation), and every id of those sections must be reported
/// by one of them.
struct LocalChecksRunTests {
    static let logger = Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() }
    static let sections: [DoctorSection] = [.fallback, .store, .creations]

    static func reported(_ store: String) async -> [DoctorCheck] {
        let request = DoctorRequest(storePath: store, remote: .success(CloudKitConfiguration()))
        return await Doctor(request: request, logger: logger).run().checks
    }

    @Test func everyCheckOfTheLocalSectionsIsReported() async throws {
        let folder = try TemporaryDirectory("doctor-every-check")
        let healthy = folder.file("healthy.sqlite")
        try DoctorFixtures.createAndClose(healthy)
        let stores = [folder.file("missing.sqlite"), try DoctorFixtures.randomBytesStore(in: folder), healthy,
                      try DoctorFixtures.killedCreationStore(in: folder).path]
        var seen: [DoctorSection: Set<DoctorCheckID>] = [:]
        for store in stores {
            for check in await Self.reported(store) { seen[check.section, default: []].insert(check.id) }
        }
        for section in Self.sections {
            let catalogue = DoctorCheckID.allCases.filter { $0.rawValue.hasPrefix(section.rawValue + ".") }
            #expect(catalogue.count >= 1)
            let unreported = catalogue.filter { !(seen[section] ?? []).contains($0) }
            #expect(unreported.isEmpty, "\(section): never reported: \(unreported.map(\.rawValue))")
        }
    }
}
