import Foundation
import Testing
import TribeBoardTestSupport

/// Numbers given on the command line are range-checked, with a message naming the option: never
/// "Missing value" for a negative number, never a run with an absurd bound.
@Suite("Numeric options")
struct NumericOptionTests {
    static let cases: [[String]] = [
        ["doctor", "--sample", "-1"], ["doctor", "--sample", "1001"],
        ["doctor", "--timeout", "-1"], ["doctor", "--timeout", "0"], ["doctor", "--timeout", "inf"], ["doctor", "--timeout", "nan"],
        ["doctor", "--stale-after", "-5m"], ["doctor", "--stale-after", "0"], ["doctor", "--stale-after", "1e300d"],
        ["doctor", "family", "X", "--stale-after", "-1"], ["doctor", "family", "X", "--timeout", "-3"],
        ["audit", "--stale-after", "-1"], ["audit", "--stale-after", "0s"], ["audit", "--stale-after", "99999d"],
        ["resync", "--max-duration", "-1"], ["resync", "--max-duration", "0"], ["resync", "--max-duration", "99999999"],
    ]

    @Test("out of range: exit 64 and a message naming the option", arguments: cases)
    func outOfRange(arguments: [String]) throws {
        let result = try ProcessRunner.run(ProcessRunner.executable("tribeboard"), arguments + ["--store", "/nonexistent/s.sqlite"])
        let option = arguments[arguments.count - 2]
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(option) && result.stderr.contains("must be"), "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
    }
}
