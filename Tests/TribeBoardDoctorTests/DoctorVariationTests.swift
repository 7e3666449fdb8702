import Foundation
import Testing
import TribeBoardProjectFixtures
import TribeBoardTestSupport
@testable import TribeBoardDoctor
@testable import TribeBoardXcodeProject

/// For every trimmed real project under Tests/Fixtures/doctor/real (listed from disk, so a new one is
/// covered without being named here): a copy broken in one line of one CloudKit target (a container its
/// code names taken out of its entitlements; else CloudKit out of its services; else its entitlements
/// path pointed at a file that is not there) must fail at that target, where the original does not.
@Suite("Doctor: a one-line break of every real project is caught")
struct DoctorVariationTests {
    static let fixtures: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: DoctorFixtures.project("real"))) ?? [])
        .filter { !$0.hasPrefix(".") }.sorted()

    /// One line to change in one file, and the check that must then fail at `target`.
    struct Break: CustomStringConvertible {
        let target: String
        /// Absolute path in the fixture.
        let file: String
        let line: Int
        let replacement: String?
        let check: String
        var description: String { "\(target): line \(line) of \(file) -> \(check)" }
    }

    /// `failing`: `target|check` already failing in the original (a break there would prove nothing).
    static func plan(_ gathered: ContainerChecks.Gathered, failing: Set<String>) -> Break? {
        let judged = gathered.facts.filter(\.isRelevant)
        let open = { (target: String, check: String) in !failing.contains(target + "|" + check) }
        // 1. A container the code names, listed by one build's entitlements: remove its line.
        for facts in judged where open(facts.target.name, "container.swiftSources") {
            for reference in facts.references {
                for build in facts.builds {
                    guard let file = build.file else { continue }
                    let named: String?
                    switch reference.value {
                    case .literal(let text): named = text
                    case .bundleIDSuffix(let prefix): named = build.bundleID.map { prefix + $0.value }
                    default: named = nil
                    }
                    guard let named, let listed = build.containers.first(where: { $0.value.isResolved && $0.value.value == named }),
                          let line = file.line(ofValue: listed.written, after: TargetFacts.containersKey),
                          lines(file.path)[safe: line - 1]?.contains("<string>\(listed.written)</string>") == true else { continue }
                    return Break(target: facts.target.name, file: file.path, line: line, replacement: nil, check: "container.swiftSources")
                }
            }
        }
        // 1b. The default container, the only one listed: remove it. Not for SwiftData's
        // `.automatic`, which then makes a local store (not a failure: the issue's class 4).
        for facts in judged where open(facts.target.name, "container.swiftSources")
            && facts.references.contains(where: { $0.value == .defaultContainer && !$0.isAutomatic }) {
            for build in facts.builds {
                guard let file = build.file, build.containers.count == 1, let only = build.containers.first,
                      let line = file.line(ofValue: only.written, after: TargetFacts.containersKey),
                      lines(file.path)[safe: line - 1]?.contains("<string>\(only.written)</string>") == true else { continue }
                return Break(target: facts.target.name, file: file.path, line: line, replacement: nil, check: "container.swiftSources")
            }
        }
        // 2. Code that uses CloudKit (the default container too): take CloudKit out of the services.
        for facts in judged where !facts.references.isEmpty && open(facts.target.name, "container.iCloudServices") {
            for build in facts.builds where build.usesCloudKitService {
                guard let file = build.file, let line = file.line(ofValue: "CloudKit", after: TargetFacts.servicesKey),
                      lines(file.path)[safe: line - 1]?.contains("<string>CloudKit</string>") == true else { continue }
                return Break(target: facts.target.name, file: file.path, line: line, replacement: nil, check: "container.iCloudServices")
            }
        }
        // 3. iCloud without code naming a container: CODE_SIGN_ENTITLEMENTS names a file that is not there.
        for facts in judged where open(facts.target.name, "container.entitlements") {
            for build in facts.builds where build.entitlementsSetting?.isResolved == true {
                guard let location = build.entitlementsSetting?.location, let line = location.line else { continue }
                let path = FilePaths.join(gathered.location.root, location.path)
                guard let text = lines(path)[safe: line - 1], text.contains(".entitlements") else { continue }
                return Break(target: facts.target.name, file: path, line: line,
                             replacement: text.replacingOccurrences(of: ".entitlements", with: "-Missing.entitlements"), check: "container.entitlements")
            }
        }
        return nil
    }

    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func failures(_ path: String) -> [DoctorCheck] {
        ContainerChecks(projectPath: path, toolkit: nil).run().filter { $0.status == .failure }
    }

    @Test(arguments: fixtures)
    func aOneLineBreakFailsAtItsTarget(_ fixture: String) throws {
        let original = DoctorFixtures.project("real/\(fixture)")
        let gathered: ContainerChecks.Gathered
        do {
            gathered = try ContainerChecks.gather(original)
        } catch {
            // A folder doctor cannot read (an XcodeGen or Tuist source) already fails as a whole.
            #expect(Self.failures(original).map(\.id) == [.containerProject], "\(fixture): \(error)")
            return
        }
        let failing = Set(Self.failures(original).map { "\($0.target ?? "-")|\($0.id.rawValue)" })
        guard let plan = Self.plan(gathered, failing: failing) else {
            // Only a project without any CloudKit target has nothing to break; say which it is.
            #expect(gathered.facts.filter(\.isRelevant).isEmpty, "\(fixture): a CloudKit target offers no line to break")
            // A framework's project has no app target at all: that is its one failure.
            #expect(failing.isEmpty || (gathered.facts.isEmpty && failing == ["-|container.project"]), "\(fixture): \(failing)")
            return
        }
        #expect(!Self.failures(original).contains { $0.target == plan.target && $0.id.rawValue == plan.check }, "\(fixture): already failing before the break")
        let variant = try DoctorVariant("real/\(fixture)")
        let relative = String(plan.file.dropFirst(original.count + 1))
        let before = try variant.removeLine(plan.line, of: relative, replacement: plan.replacement)
        #expect(before == Self.lines(plan.file)[safe: plan.line - 1], "the line changed is the one planned")
        let after = Self.failures(variant.path)
        #expect(after.contains { $0.target == plan.target && $0.id.rawValue == plan.check }, "\(fixture): \(plan) not caught; failures: \(after)")
    }

    @Test func everyRealFixtureIsVariedAndMostAreBrokenAtATarget() throws {
        #expect(Self.fixtures.count >= 33)
        let planned = Self.fixtures.filter { fixture in
            (try? ContainerChecks.gather(DoctorFixtures.project("real/\(fixture)"))).flatMap { Self.plan($0, failing: []) } != nil
        }
        #expect(planned.count * 4 >= Self.fixtures.count * 3, "only \(planned.count) of \(Self.fixtures.count) fixtures offer a line to break")
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
