import Foundation
import Testing
import TribeBoardProjectFixtures
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardDoctor
@testable import TribeBoardStore

/// The seed's chain as the toolkit reports it: CloudKit, local-only and why, read-only, in memory.
@Suite("Doctor: fallback chain")
struct DoctorFallbackTests {
    @Test func eachStoreAndRemoteStateGivesOneModeAndReason() throws {
        let folder = try TemporaryDirectory("doctor-fallback")
        let path = folder.file("s.sqlite")
        try DoctorFixtures.createAndClose(path)
        let store = try TribeBoardStore.openReadOnly(at: path)
        let cases: [(StoreState, RemoteState, FallbackAssessment.Mode, FallbackAssessment.Reason, DoctorSeverity)] = [
            (.writable(store), .accepted, .cloudKit, .none, .ok),
            (.writable(store), .notConfigured, .localOnly, .noKey, .warning),
            (.writable(store), .unreachable("refused"), .localOnly, .remoteDown, .warning),
            (.writable(store), .busy("503"), .localOnly, .remoteDown, .warning),
            (.writable(store), .rejected("AUTHENTICATION_FAILED"), .localOnly, .authFailure, .failure),
            (.writable(store), .misconfigured("key file"), .localOnly, .authFailure, .failure),
            (.missing(folderWritable: true), .accepted, .cloudKit, .none, .ok),
            (.missing(folderWritable: false), .accepted, .inMemory, .storeUnusable, .failure),
            (.readOnly(store, reason: "not writable"), .accepted, .readOnly, .storeReadOnly, .failure),
            (.unusable(reason: "damaged"), .accepted, .inMemory, .storeUnusable, .failure),
        ]
        for (storeState, remote, mode, reason, status) in cases {
            let (assessment, check) = FallbackChain.assess(store: storeState, remote: remote)
            #expect(assessment.mode == mode && assessment.reason == reason, "\(storeState) \(remote): \(assessment)")
            #expect(check.status == status, "\(storeState) \(remote)")
            #expect(check.found.hasPrefix(mode.rawValue))
        }
    }
}
