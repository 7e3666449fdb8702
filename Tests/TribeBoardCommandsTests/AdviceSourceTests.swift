import Foundation
import Testing
import TribeBoardDomain

/// Every command the toolkit prints as advice is built by `Advice` (or the store's one shell
/// pipeline, `TribeBoardStore.createCommand`): a command written out in a message would name no
/// store and no remote, and would not run as printed where cron or support read it. The end-to-end
/// tests (`AdviceAsPrintedTests`, `SupportAdviceAsPrintedTests`) run the catalogue's commands
/// from the states that print them; this test keeps new advice inside the catalogue.
struct AdviceSourceTests {
    /// A backquoted `tribeboard …` in a Swift string, or a string that starts with one.
    static func writtenOutCommands(in text: String) -> [Int] {
        var lines: [Int] = []
        var inHelpBlock = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            // `--help` texts (a subcommand's discussion, multi-line) describe commands in general,
            // not the situation of one run.
            if trimmed.hasPrefix("discussion: \"\"\"") || trimmed.hasSuffix("discussion: \"\"\"") { inHelpBlock = true }
            if inHelpBlock {
                if trimmed.hasPrefix("\"\"\"") { inHelpBlock = false }
                continue
            }
            if trimmed.hasPrefix("//") || trimmed.contains("ArgumentHelp(") || trimmed.hasPrefix("discussion:") { continue }
            if line.contains("`tribeboard ") || line.contains("\"tribeboard ") { lines.append(index + 1) }
        }
        return lines
    }

    @Test func printedCommandsComeFromTheCatalogue() throws {
        let sources = ReadmeTables.root.appendingPathComponent("Sources")
        let catalogue = "TribeBoardDomain/Advice.swift"
        var found: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 100, "the Sources tree was read: \(files.count) files")
        for file in files where !file.path.hasSuffix(catalogue) {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in Self.writtenOutCommands(in: text) {
                found.append("\(file.path.replacingOccurrences(of: sources.path + "/", with: "")):\(line)")
            }
        }
        #expect(found.isEmpty, "commands written out instead of built by Advice: \(found)")
    }

    /// The scan sees what it must: a message with a written-out command, not a help text.
    @Test func theScanFindsWrittenOutCommandsOnly() {
        let source = """
            static let help = CommandConfiguration(
                discussion: \"\"\"
                    `tribeboard resync` uploads them.
                    \"\"\")
            // `tribeboard audit` in a comment
            let action = "run `tribeboard resync` now"
            let next = "tribeboard resync --list"
            """
        #expect(Self.writtenOutCommands(in: source) == [6, 7])
    }

    @Test func placeholdersStayBareAndTheRestIsQuoted() {
        let advice = Advice.recode(familyID: "F-1", store: "my store.sqlite", remote: ["--container", "iCloud.x y"])
        #expect(advice.command == "tribeboard recode F-1 --store 'my store.sqlite' --container 'iCloud.x y' --apply --out DIR")
        #expect(Advice.findFamily(store: "s").words.contains("NAME") && Advice.placeholders.contains("NAME"))
    }

    /// A value that starts with `-` would read as an option: it is joined to its option, and a
    /// positional one goes after `--`.
    @Test func valuesThatLookLikeOptionsStayValues() {
        #expect(Advice.resync(store: "-s.sqlite").words == ["tribeboard", "resync", "--store=-s.sqlite"])
        #expect(Advice.doctorFamily(store: "s", family: "-Smith").words == ["tribeboard", "doctor", "family", "--store", "s", "--", "-Smith"])
        #expect(Advice.doctorFamily(store: "s", family: "Smith").words == ["tribeboard", "doctor", "family", "Smith", "--store", "s"])
    }
}
