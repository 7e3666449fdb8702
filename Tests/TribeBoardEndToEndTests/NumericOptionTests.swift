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
        ["resync", "--concurrency", "0"], ["resync", "--concurrency", "9"],
    ]

    /// Refused as a value out of range (the option's own check, or its type's), never as an
    /// option missing its value.
    @Test("out of range: exit 64 and a message naming the option", arguments: cases)
    func outOfRange(arguments: [String]) throws {
        let result = try ProcessRunner.run(ProcessRunner.executable("tribeboard"), arguments + ["--store", "/nonexistent/s.sqlite", "--json"])
        let option = arguments[arguments.count - 2]
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        let error = try ErrorDocument(result)
        #expect(["usage.validation", "usage.invalidValue"].contains(error.kind), "\(arguments): \(error.kind)")
        #expect(error.option == nil || error.option == option, "\(arguments): \(String(describing: error.option))")
        #expect(error.message.contains(option), "the message names the option: \(error.message)")
    }
}
