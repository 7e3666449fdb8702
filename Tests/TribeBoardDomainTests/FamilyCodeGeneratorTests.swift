import Foundation
import Synchronization
import Testing
import TribeBoardTestSupport
@testable import TribeBoardDomain

/// A random source that plays back a script: byte arrays to hand out or failures to throw, in order.

@Suite("FamilyCodeGenerator")
struct FamilyCodeGeneratorTests {
    static let lookAlikes: Set<Character> = ["0", "O", "1", "I"]

    @Test(arguments: [6, 7, 8])
    func generatedCodesHaveTheRequestedLengthAndAlphabet(length: Int) throws {
        let generator = try FamilyCodeGenerator(length: length)
        let alphabet = Set(FamilyCode.generatedAlphabet)
        for _ in 0..<500 {
            let code = try generator.generate { _ in false }
            #expect(code.value.count == length)
            #expect(code.value.utf8.allSatisfy(alphabet.contains))
            #expect(code.value.allSatisfy { !Self.lookAlikes.contains($0) })
            // A generated code is also a valid code for the app.
            #expect(try FamilyCode(validating: code.value) == code)
        }
    }

    @Test func alphabetHas32SymbolsWithoutLookAlikes() {
        let alphabet = FamilyCode.generatedAlphabet.map { Character(Unicode.Scalar($0)) }
        #expect(alphabet.count == 32)
        #expect(Set(alphabet).count == 32)
        #expect(alphabet.allSatisfy { !Self.lookAlikes.contains($0) })
        #expect(alphabet.allSatisfy { ("A"..."Z").contains($0) || ("2"..."9").contains($0) })
    }

    @Test func tenThousandCodesAreDistinct() throws {
        let generator = try FamilyCodeGenerator(length: 6)
        var seen = Set<String>()
        for _ in 0..<10_000 { seen.insert(try generator.generate { _ in false }.value) }
        // 32^6 possible codes: about 0.05 collisions are expected among 10,000, so a handful is impossible in practice.
        #expect(seen.count >= 9_995)
    }

    @Test(arguments: [0, 5, 9, 12])
    func invalidLengthIsRefused(length: Int) {
        #expect(throws: ProvisionConfigurationError.invalidCodeLength(length)) {
            try FamilyCodeGenerator(length: length)
        }
    }

    @Test func everyByteMapsToItsLowFiveBitsWithoutBias() throws {
        // All 256 byte values, 8 per code: each symbol must come out exactly 8 times.
        let allBytes = (0...255).map { UInt8($0) }
        let source = ScriptedRandomSource(stride(from: 0, to: 256, by: 8).map { .bytes(Array(allBytes[$0..<$0 + 8])) })
        let generator = try FamilyCodeGenerator(length: 8, source: source)
        var produced: [UInt8] = []
        for _ in 0..<32 { produced += Array(try generator.generate { _ in false }.value.utf8) }
        let alphabet = FamilyCode.generatedAlphabet
        #expect(produced == allBytes.map { alphabet[Int($0 & 31)] })
        let counts = Dictionary(grouping: produced, by: { $0 }).mapValues(\.count)
        #expect(counts.count == 32)
        #expect(counts.values.allSatisfy { $0 == 8 })
    }

    @Test func collisionRegeneratesAtOnce() throws {
        let source = ScriptedRandomSource([ScriptedRandomSource.code("AAAAAA"), ScriptedRandomSource.code("BBBBBB")])
        // A collision must not wait for any retry delay: the waits are recorded, not timed.
        let waits = WaitLog()
        let generator = try FamilyCodeGenerator(length: 6, retryDelays: [.milliseconds(400)], source: source, wait: waits.record)
        var asked: [String] = []
        let code = try generator.generate { candidate in
            asked.append(candidate.value)
            return candidate.value == "AAAAAA"
        }
        #expect(waits.all.isEmpty)
        #expect(code.value == "BBBBBB")
        #expect(asked == ["AAAAAA", "BBBBBB"])
        #expect(source.calls.count == 2)
    }

    @Test func allCandidatesTakenGivesNoFreeCode() throws {
        let source = ScriptedRandomSource([], afterScript: ScriptedRandomSource.code("CCCCCC"))
        let generator = try FamilyCodeGenerator(length: 6, maxCandidates: 5, source: source)
        var asked = 0
        #expect(throws: CodeGenerationError.noFreeCode(candidatesTried: 5)) {
            try generator.generate { _ in asked += 1; return true }
        }
        #expect(asked == 5)
        #expect(source.calls.count == 5)
    }

    @Test func sourceFailingTwiceThenSucceedingStillGivesACode() throws {
        let source = ScriptedRandomSource([.failure("EAGAIN"), .failure("EAGAIN"), ScriptedRandomSource.code("DDDDDD")])
        let generator = try FamilyCodeGenerator(length: 6, retryDelays: [.milliseconds(1), .milliseconds(1), .milliseconds(1)],
                                                source: source)
        #expect(try generator.generate { _ in false }.value == "DDDDDD")
        #expect(source.calls.count == 3)
    }

    @Test func sourceAlwaysFailingGivesRandomSourceUnavailable() throws {
        let source = ScriptedRandomSource([.failure("first"), .failure("second")], afterScript: .failure("ENOSYS"))
        let delays: [Duration] = [.milliseconds(1), .milliseconds(1), .milliseconds(1)]
        let generator = try FamilyCodeGenerator(length: 6, retryDelays: delays, source: source)
        #expect(throws: CodeGenerationError.randomSourceUnavailable(attempts: delays.count + 1, reason: "ENOSYS")) {
            try generator.generate { _ in false }
        }
        #expect(source.calls.count == delays.count + 1)
    }

    @Test func retriesBackOffExponentially() throws {
        let source = ScriptedRandomSource([], afterScript: .failure("EAGAIN"))
        let delays: [Duration] = [.milliseconds(10), .milliseconds(20), .milliseconds(40)]
        let waits = WaitLog()
        let generator = try FamilyCodeGenerator(length: 6, retryDelays: delays, source: source, wait: waits.record)
        #expect(throws: CodeGenerationError.self) { try generator.generate { _ in false } }
        // Each wait is its own (growing) delay, one between each two calls.
        #expect(waits.all == delays)
        #expect(source.calls.count == 4)
    }

    @Test func errorFromIsTakenPropagates() throws {
        struct Lookup: Error {}
        let generator = try FamilyCodeGenerator(length: 6)
        #expect(throws: Lookup.self) { try generator.generate { _ in throw Lookup() } }
    }
}

/// The backoff waits a generator asked for, in order (none is actually waited).
final class WaitLog: Sendable {
    private let waits = Mutex<[Duration]>([])
    var all: [Duration] { waits.withLock { $0 } }
    func record(_ duration: Duration) { waits.withLock { $0.append(duration) } }
}
