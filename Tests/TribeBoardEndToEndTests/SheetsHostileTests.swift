import Foundation
import Testing
import TribeBoardTestSupport

/// What an operator's mistakes and a hostile machine do to `tribeboard sheets`: each failure is
/// a documented status with nothing half-written, and an existing PDF is never damaged.
@Suite struct SheetsHostileTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    func provisioned(_ count: Int, in directory: TemporaryDirectory) throws -> [ManifestRow] {
        try directory.write("in.csv", CSVFixtures.families(count: count))
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        return try ManifestFile.read(directory.file("out/manifest.csv"))
    }

    func sheets(_ arguments: [String], in directory: TemporaryDirectory) throws -> ProcessRunner.Result {
        try ProcessRunner.run(tribeboard, ["sheets", "--store", "s.sqlite", "--json"] + arguments, in: directory.path)
    }

    /// Everything in the folder but the inputs: no PDF, no temporary file.
    func leftovers(_ directory: TemporaryDirectory, besides kept: Set<String> = []) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { !["in.csv", "out", "t.txt", "m.csv"].contains($0) && !$0.hasPrefix("s.sqlite") && !kept.contains($0) }.sorted()
    }

    @Test func someoneElsesReadOnlyOrSymlinkedPlaceIsNotWritten() throws {
        let directory = try TemporaryDirectory("sheets-place")
        _ = try provisioned(2, in: directory)
        let readOnly = try directory.write("ro.pdf", "mine, kept")
        chmod(readOnly, 0o444)
        let result = try sheets(["--out", "ro.pdf"], in: directory)
        #expect(result.status == 73, "\(result.stderr)")
        let error = try ErrorDocument(result)
        #expect(error.kind == "sheets.cannotCreate" && error.status == "cannotCreate" && error.path == "ro.pdf", "\(error)")
        #expect(try String(contentsOfFile: readOnly, encoding: .utf8) == "mine, kept")
        try FileManager.default.createDirectory(atPath: directory.file("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: directory.file("link"), withDestinationPath: directory.file("real"))
        #expect(try sheets(["--out", "link/inv.pdf"], in: directory).status == 73)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("real")).isEmpty)
        #expect(try sheets(["--out", "/dev/full"], in: directory).status == 73)
    }

    /// Only root can plant a file that belongs to someone else: reported skipped otherwise.
    @Test(.enabled(if: geteuid() == 0, "needs root to give a file to another user"))
    func someoneElsesFileIsNotReplaced() throws {
        let directory = try TemporaryDirectory("sheets-theirs")
        _ = try provisioned(2, in: directory)
        let theirs = try directory.write("theirs.pdf", "theirs")
        try #require(chown(theirs, 12345, 12345) == 0)
        #expect(try sheets(["--out", "theirs.pdf"], in: directory).status == 73)
        #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "theirs")
    }

    /// A full disk, made with a file size limit (EFBIG, as ENOSPC): status 74, no PDF, no
    /// temporary file, and the previous PDF intact.
    @Test func aFullDiskLeavesThePreviousPDFAndNoTemporaryFile() throws {
        let directory = try TemporaryDirectory("sheets-full")
        _ = try provisioned(3, in: directory)
        try directory.write("inv.pdf", "previous")
        let shell = "ulimit -f 8; trap '' XFSZ; exec \"$0\" sheets --manifest out/manifest.csv --store none.sqlite --out inv.pdf --json"
        let result = try ProcessRunner.run("/bin/sh", ["-c", shell, tribeboard], in: directory.path)
        #expect(result.status == 74, "\(result.stderr)")
        // The PDF's write is what failed: under this limit SQLite cannot map the store's -shm
        // either (74, "disk I/O error"), so the families come from the manifest.
        let error = try ErrorDocument(result)
        #expect(error.kind == "file.failed" && error.operation == "write" && error.path?.hasSuffix("inv.pdf") == true, "\(error)")
        #expect(try String(contentsOfFile: directory.file("inv.pdf"), encoding: .utf8) == "previous")
        #expect(try leftovers(directory, besides: ["inv.pdf"]) == [])
    }

    /// SIGTERM once the PDF is being written (its unnamed file is open): the previous PDF stays
    /// and nothing else appears.
    @Test func aTerminatedRunLeavesThePreviousPDFAndNoTemporaryFile() throws {
        let directory = try TemporaryDirectory("sheets-sigterm")
        _ = try provisioned(1500, in: directory)
        try directory.write("inv.pdf", "previous")
        // The test runner may ignore SIGTERM, which stays ignored across exec: env restores it.
        let running = try ProcessRunner.start("/usr/bin/env", ["--default-signal=TERM", tribeboard, "sheets", "--store", "s.sqlite",
                                                               "--out", "inv.pdf", "--layout", "letters"], in: directory.path)
        var writing = false
        for _ in 0..<20_000 where !writing && running.isRunning {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(running.pid)/fd")) ?? []
            writing = descriptors.contains { name in
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(running.pid)/fd/\(name)")) ?? ""
                return target.hasPrefix(directory.path + "/") && (target.hasSuffix(" (deleted)") || target.contains("/.tmp-"))
            }
            if writing { kill(running.pid, SIGSTOP) } else { usleep(1000) }
        }
        #expect(writing, "the run ended before its PDF was open")
        kill(running.pid, SIGTERM)
        kill(running.pid, SIGCONT)
        let result = running.wait()
        #expect(result.status == SIGTERM)
        #expect(try String(contentsOfFile: directory.file("inv.pdf"), encoding: .utf8) == "previous")
        #expect(try leftovers(directory, besides: ["inv.pdf"]) == [])
    }

    /// Two runs on one --out: each writes its own unnamed file and renames it, so the PDF is
    /// wholly one run's (here: the one that finished last), never a mix.
    @Test func twoRunsOnOneOutputLeaveOneWholePDF() throws {
        let directory = try TemporaryDirectory("sheets-race")
        let families = try provisioned(16, in: directory)
        let first = families.prefix(8), second = families.suffix(8)
        func start(_ picked: ArraySlice<ManifestRow>) throws -> RunningProcess {
            try ProcessRunner.start(tribeboard, ["sheets", "--store", "s.sqlite", "--out", "inv.pdf"] + picked.flatMap { ["--external-id", $0.externalId] },
                                    in: directory.path)
        }
        let runs = [try start(first), try start(second)]
        #expect(runs.map { $0.wait().status } == [0, 0])
        let codes = try PDFReader.qrCodes(directory.file("inv.pdf")).sorted()
        #expect(codes == first.map(\.code).sorted() || codes == second.map(\.code).sorted())
        #expect(try leftovers(directory, besides: ["inv.pdf"]) == [])
    }

    @Test func templatesThatCannotBeUsedAreRefusedAsData() throws {
        let directory = try TemporaryDirectory("sheets-templates")
        let families = try provisioned(2, in: directory)
        try directory.write("t.txt", "organisation: X\n---\n" + String(repeating: "word {code} ", count: 900_000))
        let huge = try sheets(["--out", "inv.pdf", "--template", "t.txt"], in: directory)
        #expect(huge.status == 65, "\(huge.stderr)")
        let tooLarge = try ErrorDocument(huge)
        #expect(tooLarge.kind == "template.tooLarge" && tooLarge.path == "t.txt" && (tooLarge.bytes ?? 0) > 65_536, "\(tooLarge)")
        var bytes = Data("organisation: X\n---\nline three\nbad \u{FF}".utf8)
        bytes.append(contentsOf: [0xFF, 0xFE, 0x0A])
        try bytes.write(to: URL(fileURLWithPath: directory.file("t.txt")))
        let invalid = try sheets(["--out", "inv.pdf", "--template", "t.txt"], in: directory)
        #expect(invalid.status == 65, "\(invalid.stderr)")
        let notUTF8 = try ErrorDocument(invalid)
        #expect(notUTF8.kind == "template.notUTF8" && notUTF8.line == 4, "\(notUTF8)")
        try directory.write("t.txt", "organisation: X\n---\nA {{code}} B {{{code}}} C\n")
        #expect(try sheets(["--out", "inv.pdf", "--template", "t.txt"], in: directory).status == 0)
        let text = try PDFReader.text(directory.file("inv.pdf"))
        #expect(text.contains("A {code} B {\(families[0].code)} C"), "\(text)")
    }

    /// A template saved by Notepad or Excel starts with a UTF-8 byte order mark:
    /// invisible, it is not part of the first setting's name.
    @Test func aTemplateWithAByteOrderMarkIsRead() throws {
        let directory = try TemporaryDirectory("sheets-template-bom")
        let families = try provisioned(1, in: directory)
        try directory.write("t.txt", "organisation: École des Tilleuls\r\ncode_label: Code famille\r\n---\r\nCode : {code}\r\n", bom: true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("t.txt"))).starts(with: [0xEF, 0xBB, 0xBF]))
        let result = try sheets(["--out", "inv.pdf", "--template", "t.txt"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try PDFReader.text(directory.file("inv.pdf"))
        #expect(text.contains("École des Tilleuls") && text.contains("Code famille") && text.contains("Code : \(families[0].code)"), "\(text)")
    }

    /// Thousands of combining marks on one letter made pango's time grow with the
    /// square of the run on every card (8,000: 0.4 s a card): past Unicode's stream-safe 30 the
    /// template is refused at once, naming the line; 30 are still printed.
    @Test func aTemplateWithARunOfThousandsOfMarksIsRefusedAtOnce() throws {
        let directory = try TemporaryDirectory("sheets-template-marks")
        _ = try provisioned(8, in: directory)
        try directory.write("t.txt", "organisation: X\n---\nHello\ne" + String(repeating: "\u{0301}", count: 8000) + " {code}\n")
        let started = Date()
        let result = try sheets(["--out", "inv.pdf", "--template", "t.txt", "--allow-cut"], in: directory)
        #expect(result.status == 65, "\(result.stderr)")
        let error = try ErrorDocument(result)
        #expect(error.kind == "template.syntax" && error.line == 4 && error.message.contains("combining marks"), "\(error)")
        #expect(Date().timeIntervalSince(started) < 2, "refused before any card is laid out")
        #expect(!FileManager.default.fileExists(atPath: directory.file("inv.pdf")))
        try directory.write("t.txt", "organisation: X\n---\nHello e" + String(repeating: "\u{20DD}", count: 31) + "\n")
        #expect(try ErrorDocument(try sheets(["--out", "inv.pdf", "--template", "t.txt"], in: directory)).line == 3, "enclosing marks count too")
        try directory.write("t.txt", "organisation: X\n---\nHello e" + String(repeating: "\u{0301}", count: 30) + " {code}\n")
        #expect(try sheets(["--out", "inv.pdf", "--template", "t.txt", "--allow-cut"], in: directory).status == 0)
    }

    /// A manifest edited by hand: a code the app would refuse is not printed (its family named,
    /// no PDF); bytes that are not UTF-8 are named by line rather than read as a short row.
    @Test func anEditedManifestIsRefusedNotPrinted() throws {
        let directory = try TemporaryDirectory("sheets-manifest")
        let families = try provisioned(3, in: directory)
        let manifest = try String(contentsOfFile: directory.file("out/manifest.csv"), encoding: .utf8)
        for bad in ["ABC-12", "abcdef", "A1"] {
            try directory.write("m.csv", manifest.replacingOccurrences(of: families[1].code, with: bad))
            let result = try sheets(["--manifest", "m.csv", "--out", "inv.pdf"], in: directory)
            #expect(result.status == 65, "\(bad): \(result.stderr)")
            let error = try ErrorDocument(result)
            #expect(error.kind == "sheets.invalidCode" && error.recordId == families[1].familyId, "\(bad): \(error)")
            #expect(try leftovers(directory) == [])
        }
        var bytes = Data(manifest.utf8)
        if let range = bytes.range(of: Data(families[2].familyName.utf8)) { bytes.replaceSubrange(range, with: [0x46, 0xFF, 0x46]) }
        try bytes.write(to: URL(fileURLWithPath: directory.file("m.csv")))
        let result = try sheets(["--manifest", "m.csv", "--out", "inv.pdf"], in: directory)
        #expect(result.status == 65, "\(result.stderr)")
        let error = try ErrorDocument(result)
        #expect(error.kind == "manifest.unreadable" && error.path == "m.csv", "\(error)")
        #expect(error.message.contains("line 4 is not valid UTF-8"), "the message names the line to fix: \(error.message)")
        #expect(try leftovers(directory) == [])
    }
}
