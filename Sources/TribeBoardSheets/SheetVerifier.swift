import Foundation
import TribeBoardDomain

/// `sheets --verify FILE.pdf`: reads a finished PDF back as a print shop would see it, with
/// readers other than the ones that wrote it: poppler renders each page (pdftoppm) and gives
/// the printed words with their boxes (pdftotext -bbox), zbar decodes every QR code (zbarimg).
/// Each printed code's QR code is cut out of the rendered page where the layout puts it (to the
/// code's left on a card, above it on a letter) and decoded; both must be the same, and a
/// family's in the store or manifest.
/// A check of the PDF itself, not of the layout that made it: what goes to the printer.
package struct SheetVerifier {
    /// What a card can get wrong.
    package enum Problem: String, Encodable, Sendable {
        /// The QR code reads another code than the one printed beside it.
        case qrDiffersFromPrintedCode
        /// A printed code with no QR code that decodes beside it.
        case qrUnreadable
        /// A code (QR and print agree) that no family of the store or manifest has.
        case codeOfNoFamily

        var sentence: String {
            switch self {
            case .qrDiffersFromPrintedCode:
                return "its QR code reads another code than the one printed on it"
            case .qrUnreadable: return "its QR code does not decode"
            case .codeOfNoFamily: return "its code is no family's"
            }
        }
    }

    package struct Failure: Encodable, Sendable, Equatable {
        package let page: Int
        /// The family whose code is printed on the card, when one has it.
        package let familyId: String?
        package let familyName: String?
        package let problem: Problem
    }

    package struct Report: Encodable, Sendable {
        package let pdf: String
        package var pages = 0
        package var cards = 0
        package var failed = 0
        /// The first 20.
        package var failures: [Failure] = []
        package var passed: Bool { failed == 0 && cards > 0 }

        package init(pdf: String) { self.pdf = pdf }

        mutating func fail(_ failure: Failure) {
            failed += 1
            if failures.count < 20 { failures.append(failure) }
        }
    }

    /// 150 dpi: a card's QR code module is 4 pixels or more (docs/sheets.md measures 100 to 300).
    static let dotsPerInch = 150

    let tools: [String: String]

    /// Finds pdftoppm, pdftotext and zbarimg; a missing one is named with its package.
    package init() throws(SheetError) {
        var tools: [String: String] = [:]
        for (tool, package) in [
            ("pdftoppm", "poppler-utils"), ("pdftotext", "poppler-utils"), ("zbarimg", "zbar-tools")
        ] {
            let found = ["/usr/bin", "/usr/local/bin", "/bin"].map { "\($0)/\(tool)" }.first {
                FileManager.default.isExecutableFile(atPath: $0)
            }
            guard let found else { throw .verifyUnavailable(tool: tool, package: package) }
            tools[tool] = found
        }
        self.tools = tools
    }

    /// Checks every card of `pdf`; `family` names the family holding a code (nil: none).
    package func verify(_ pdf: String, family: (String) -> (id: String, name: String)?) throws(SheetError) -> Report {
        var report = Report(pdf: pdf)
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("tribeboard-verify-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .verify(reason: "cannot make a temporary folder: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let words = try Self.codeWords(try run("pdftotext", ["-bbox", "-enc", "UTF-8", pdf, "-"], in: folder))
        _ = try run("pdftoppm", ["-r", String(Self.dotsPerInch), "-gray", pdf, folder + "/page"], in: folder)
        let images = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".pgm") }.sorted()
        report.pages = images.count
        for (index, image) in images.enumerated() {
            let page = index + 1
            guard let pixels = GrayImage(path: folder + "/" + image) else { throw .verify(reason: "pdftoppm's page \(page) cannot be read") }
            try? FileManager.default.removeItem(atPath: folder + "/" + image)
            // Each printed code's card: the QR code is to its left (a card) or above it (a
            // letter); both places are cut out and decoded, in one zbarimg run a page.
            var crops: [String] = []
            for (number, word) in (words[page] ?? []).enumerated() {
                for (place, box) in Self.qrPlaces(of: word).enumerated() {
                    let path = folder + "/crop-\(number)-\(place).pgm"
                    if pixels.write(box, scale: Double(Self.dotsPerInch) / 72, to: path) {
                        crops.append(path)
                    }
                }
            }
            var decoded: [Int: [String]] = [:]
            if !crops.isEmpty {
                // zbarimg ends 4 when it finds no code at all: the cards are then named below.
                let xml = try run(
                    "zbarimg", ["--nodbus", "-q", "--xml", "-Sdisable", "-Sqrcode.enable"] + crops,
                    in: folder, accept: [0, 4])
                decoded = Self.decodedByWord(xml)
            }
            for path in crops { try? FileManager.default.removeItem(atPath: path) }
            for (number, word) in (words[page] ?? []).enumerated() {
                let printed = family(word.text)
                let read = decoded[number] ?? []
                // A code-like word no family has and no QR code beside it is the template's text.
                if printed == nil && read.isEmpty { continue }
                report.cards += 1
                if read.isEmpty {
                    report.fail(Failure(page: page, familyId: printed?.id, familyName: printed?.name, problem: .qrUnreadable))
                } else if read.contains(where: { $0 != word.text }) {
                    report.fail(Failure(page: page, familyId: printed?.id, familyName: printed?.name, problem: .qrDiffersFromPrintedCode))
                } else if printed == nil {
                    report.fail(
                        Failure(
                            page: page, familyId: nil, familyName: nil, problem: .codeOfNoFamily))
                }
            }
        }
        return report
    }

    struct Box: Equatable {
        let x0, y0, x1, y1: Double
        let text: String
    }

    /// The printed words that could be codes (6 to 8 of A-Z0-9), by page, each once.
    static func codeWords(_ html: String) throws(SheetError) -> [Int: [Box]] {
        var pages: [Int: [Box]] = [:]
        var page = 0
        for line in html.split(separator: "\n") {
            if line.contains("<page ") { page += 1; continue }
            guard line.contains("<word "), let text = between(line, ">", "</word>") else {
                continue
            }
            guard FamilyCode.isWireFormat(String(text)) else { continue }
            guard let x0 = attribute(line, "xMin"), let y0 = attribute(line, "yMin"),
                let x1 = attribute(line, "xMax"), let y1 = attribute(line, "yMax")
            else { continue }
            let box = Box(x0: x0, y0: y0, x1: x1, y1: y1, text: String(text))
            // A code is also in the wording ("or type the code …"): the card's own is the
            // tallest, the one set large beside (or under) its QR code.
            if let same = pages[page]?.firstIndex(where: { $0.text == box.text }) {
                if let held = pages[page]?[same], held.y1 - held.y0 < box.y1 - box.y0 {
                    pages[page]?[same] = box
                }
            } else {
                pages[page, default: []].append(box)
            }
        }
        return pages
    }

    /// Where the QR code of a printed code is: to its left on a card (the column beside the
    /// symbol), above it on a letter (the symbol centred over the label and code), in points.
    static func qrPlaces(of word: Box) -> [Box] {
        let centre = (word.x0 + word.x1) / 2
        return [
            Box(x0: word.x0 - 150, y0: word.y0 - 40, x1: word.x0 - 1, y1: word.y0 + 150, text: ""),
            Box(x0: centre - 115, y0: word.y0 - 250, x1: centre + 115, y1: word.y0 - 2, text: "")
        ]
    }

    /// What zbarimg decoded in each crop, by the index of the word the crop belongs to.
    static func decodedByWord(_ xml: String) -> [Int: [String]] {
        var decoded: [Int: [String]] = [:]
        for source in xml.components(separatedBy: "<source href='").dropFirst() {
            guard let name = source.split(separator: "'").first,
                let file = name.split(separator: "/").last,
                let number = file.split(separator: "-").dropFirst().first.flatMap({ Int($0) })
            else { continue }
            for symbol in source.components(separatedBy: "<data><![CDATA[").dropFirst() {
                guard let end = symbol.range(of: "]]>") else { continue }
                decoded[number, default: []].append(String(symbol[..<end.lowerBound]))
            }
        }
        return decoded
    }

    private static func between(_ line: Substring, _ start: String, _ end: String) -> Substring? {
        guard let open = line.range(of: start),
            let close = line.range(of: end, range: open.upperBound..<line.endIndex)
        else { return nil }
        return line[open.upperBound..<close.lowerBound]
    }

    private static func attribute(_ line: Substring, _ name: String) -> Double? {
        between(line, "\(name)=\"", "\"").flatMap { Double($0) }
    }

    /// Runs a reader; its warnings go to a file in `folder` (a pipe left unread could fill).
    private func run(
        _ tool: String, _ arguments: [String], in folder: String, accept: Set<Int32> = [0]
    ) throws(SheetError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tools[tool] ?? tool)
        process.arguments = arguments
        let output = Pipe()
        let errorPath = folder + "/stderr"
        FileManager.default.createFile(
            atPath: errorPath, contents: nil, attributes: [.posixPermissions: 0o600])
        guard let errors = FileHandle(forWritingAtPath: errorPath) else {
            throw .verify(reason: "cannot write in \(folder)")
        }
        defer { try? errors.close() }
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch {
            throw .verify(reason: "\(tool) did not start: \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let message = FileManager.default.contents(atPath: errorPath) ?? Data()
        guard accept.contains(process.terminationStatus) else {
            let said = String(decoding: message.prefix(300), as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            throw .verify(
                reason:
                    "\(tool) could not read the PDF (status \(process.terminationStatus)): \(said)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A page pdftoppm rendered in gray (binary PGM), cut into the pieces zbarimg reads.
struct GrayImage {
    let width: Int
    let height: Int
    let pixels: Data

    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        // "P5\n<width> <height>\n255\n" then a byte a pixel.
        var fields: [Int] = []
        var index = data.startIndex
        var current = ""
        var magic = ""
        while index < data.endIndex && fields.count < 3 {
            let byte = data[index]
            index += 1
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                if magic.isEmpty {
                    magic = current
                } else if let value = Int(current) {
                    fields.append(value)
                }
                current = ""
            } else {
                current.append(Character(Unicode.Scalar(byte)))
            }
        }
        guard magic == "P5", fields.count == 3, fields[2] == 255 else { return nil }
        let (width, height) = (fields[0], fields[1])
        guard width > 0, height > 0, width <= 20_000, height <= 20_000,
            data.endIndex - index >= width * height
        else { return nil }
        self.width = width
        self.height = height
        pixels = data[index..<(index + width * height)]
    }

    /// Writes the part of the page inside `box` (points; `scale` pixels a point) as a PGM.
    func write(_ box: SheetVerifier.Box, scale: Double, to path: String) -> Bool {
        let x0 = max(Int(box.x0 * scale), 0), y0 = max(Int(box.y0 * scale), 0)
        let x1 = min(Int(box.x1 * scale), width), y1 = min(Int(box.y1 * scale), height)
        guard x1 - x0 > 20, y1 - y0 > 20 else { return false }
        var out = Data("P5\n\(x1 - x0) \(y1 - y0)\n255\n".utf8)
        let base = pixels.startIndex
        for row in y0..<y1 {
            out.append(pixels[(base + row * width + x0)..<(base + row * width + x1)])
        }
        return FileManager.default.createFile(
            atPath: path, contents: out, attributes: [.posixPermissions: 0o600])
    }
}
