import Foundation

/// The family's fields a template may name as `{field}`.
package enum TemplateField: String, CaseIterable, Sendable {
    case familyName = "family_name"
    case adminName = "admin_name"
    case code
    case externalId = "external_id"
    case organisation
}

/// Text with placeholders, parsed once and filled per family.
package struct TemplateText: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        case literal(String)
        case field(TemplateField)
        /// Any other name: a column of the manifest (`{class}`), checked against its header.
        case column(String)
    }

    let parts: [Part]

    package func filled(_ values: [TemplateField: String], columns: [String: String] = [:])
        -> String
    {
        parts.map { part in
            switch part {
            case .literal(let text): return text
            case .field(let field): return values[field] ?? ""
            case .column(let name): return columns[name] ?? ""
            }
        }.joined()
    }

    /// `{name}` is a placeholder, `{{` and `}}` a literal brace. Every name that is not a field is
    /// kept as a column (with its line and column): a manifest may have it, and if not, all are
    /// named at once. A brace out of place is a problem, noted with its place, and the parse goes
    /// on (kept as text), so one run names every problem of the template.
    /// `firstColumn` is the column of the text's first character on its first line.
    static func parse(
        _ text: String, firstLine: Int, firstColumn: Int = 1, unknown: inout [SheetTemplate.Column],
        problems: inout [SheetTemplateError]
    ) -> TemplateText {
        var parts: [Part] = []
        var literal = ""
        var line = firstLine
        var column = firstColumn
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if (character == "{" || character == "}"), next < text.endIndex, text[next] == character
            {
                literal.append(character)
                index = text.index(after: next)
                column += 2
                continue
            }
            if character == "}" {
                problems.append(
                    .syntax(line: line, column: column, "a lone \"}\" (write \"}}\" for a brace)"))
            }
            guard character == "{" else {
                literal.append(character)
                index = next
                if character == "\n" { line += 1; column = 1 } else { column += 1 }
                continue
            }
            guard let close = text[next...].firstIndex(of: "}"), !text[next..<close].contains("\n")
            else {
                problems.append(
                    .syntax(
                        line: line, column: column,
                        "a \"{\" without its \"}\" on the same line (write \"{{\" for a brace)"))
                literal.append(character)
                index = next
                column += 1
                continue
            }
            let name = String(text[next..<close])
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            if let field = TemplateField(rawValue: trimmed) {
                parts.append(.field(field))
            } else {
                parts.append(.column(trimmed))
                unknown.append(
                    SheetTemplate.Column(
                        name: trimmed, shown: "{\(name)} (line \(line), column \(column))"))
            }
            column += text[index...close].count
            index = text.index(after: close)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return TemplateText(parts: parts)
    }
}

package enum SheetTemplateError: Error, Equatable, LocalizedError {
    case cannotOpen(path: String, reason: String)
    /// `column`: the character's place on the line (1-based), when one character is the problem.
    case syntax(line: Int, column: Int? = nil, String)
    case unknownPlaceholders([String])
    case unknownSetting(line: Int, String)
    case logo(path: String, reason: String)
    /// The logo's file does not exist (exit 66, where an unusable one is 65).
    case logoMissing(path: String)
    case notUTF8(path: String, line: Int)
    case tooLarge(path: String, bytes: Int)
    /// Every problem of one template (two or more), in the order of its lines: fixed in one go.
    case several([SheetTemplateError])

    /// No error, the one problem as it is, or all of them at once.
    package static func combined(_ problems: [SheetTemplateError]) -> SheetTemplateError? {
        problems.count > 1 ? .several(problems) : problems.first
    }

    package var errorDescription: String? {
        let known = TemplateField.allCases.map { "{\($0.rawValue)}" }.joined(separator: " ")
        switch self {
        case .cannotOpen(let path, let reason): return "cannot read the template \(path): \(reason)"
        case .syntax(let line, let column, let problem):
            return "template line \(line)\(column.map { ", column \($0)" } ?? ""): \(problem)"
        case .unknownPlaceholders(let names):
            return "the template names unknown placeholders: \(names.joined(separator: ", ")); known: \(known), and from --manifest its columns"
        case .unknownSetting(let line, let name):
            return "template line \(line): unknown setting \"\(name)\"; known: \(SheetTemplate.settingNames.joined(separator: ", "))"
        case .logo(let path, let reason): return "the template's logo \(path): \(reason)"
        case .logoMissing(let path): return "the template's logo \(path): no such file"
        case .notUTF8(let path, let line):
            return "the template \(path) is not UTF-8 text (line \(line)); save it as UTF-8"
        case .tooLarge(let path, let bytes):
            return "the template \(path) has \(bytes) bytes; a template may have at most \(SheetTemplate.maxBytes) (64 KB)"
        case .several(let problems):
            // One line (stderr shows a message as one): each problem numbered, in the order of its
            // lines.
            return "the template has \(problems.count) problems (nothing was written): "
                + problems.enumerated().map {
                    "(\($0.offset + 1)) \($0.element.errorDescription ?? "")"
                }.joined(separator: " ")
        }
    }
}

/// An invitation template: `name: value` settings, a line `---`, then the wording.
/// Documented in docs/sheets.md (section "Templates").
package struct SheetTemplate: Sendable, Equatable {
    static let settingNames = [
        "organisation", "language", "logo", "title", "code_label", "admin_label"
    ]

    package var organisation = ""
    /// BCP 47 tag of the instructions' language: pango picks glyph variants and line breaks by it.
    package var language = "en"
    /// A PNG or an SVG, relative paths taken from the template's folder.
    var logoPath: String?
    package var title = TemplateText(parts: [])
    package var codeLabel = "Family code"
    package var adminLabel = "Administrator"
    package var body = TemplateText(parts: [])
    /// Placeholders that are not fields: columns a manifest must have (none from the store).
    package var columns: [Column] = []
    /// What is wrong with it, every problem in the order of its lines
    /// (`SheetTemplateError.combined`).
    package var problems: [SheetTemplateError] = []

    package struct Column: Sendable, Equatable {
        package let name: String
        /// As written, with its line: `{kode} (line 4)`.
        let shown: String
    }

    /// Refuses the placeholders that are not among `available` columns, naming every one.
    package static func requireColumns(_ columns: [Column], available: Set<String>)
        throws(SheetTemplateError)
    {
        if let missing = missingColumns(columns, available: available) { throw missing }
    }

    /// The placeholders that are not among `available` columns, as one problem naming every one.
    package static func missingColumns(_ columns: [Column], available: Set<String>)
        -> SheetTemplateError?
    {
        let missing = columns.filter { !available.contains($0.name) }
        return missing.isEmpty ? nil : .unknownPlaceholders(missing.map(\.shown))
    }

    /// A template is a page of wording: 64 KB is far more than a letter holds, and pango lays out
    /// the whole wording again on every card, so a huge one would take minutes and gigabytes.
    static let maxBytes = 64 << 10

    package static func load(path: String) throws(SheetTemplateError) -> SheetTemplate {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .cannotOpen(
                path: path,
                reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw .cannotOpen(path: path, reason: "not a regular file")
        }
        guard status.st_size <= maxBytes else {
            throw .tooLarge(path: path, bytes: Int(status.st_size))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .cannotOpen(path: path, reason: "cannot be read")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .notUTF8(path: path, line: Self.firstInvalidLine(data))
        }
        let folder = (path as NSString).deletingLastPathComponent
        return parse(text, folder: folder.isEmpty ? "." : folder)
    }

    /// Unicode's stream-safe text format (UAX #15) allows 30 combining marks in a row; no script
    /// needs more, and pango's time grows with the square of a run (8,000 marks: 0.4 s a card).
    static let maxMarks = 30

    /// The longest run of combining marks (any non-starter or mark, spacing or enclosing ones
    /// included), counted in one pass over the scalars.
    static func longestMarkRun(_ line: Substring) -> Int {
        var longest = 0, run = 0
        for scalar in line.unicodeScalars {
            let properties = scalar.properties
            let mark =
                properties.canonicalCombiningClass != .notReordered
                || [.nonspacingMark, .spacingMark, .enclosingMark].contains(
                    properties.generalCategory)
            run = mark ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// The line of the first byte that is not UTF-8, for the error message.
    static func firstInvalidLine(_ data: Data) -> Int {
        var line = 1
        var start = data.startIndex
        for index in data.indices where data[index] == 0x0A {
            if String(validating: data[start..<index], as: UTF8.self) == nil { return line }
            line += 1
            start = data.index(after: index)
        }
        return line
    }

    /// The template, with every problem it has in `problems` (none thrown: see `combined`).
    package static func parse(_ text: String, folder: String) -> SheetTemplate {
        var template = SheetTemplate()
        var unknown: [Column] = []
        var problems: [SheetTemplateError] = []
        // Notepad and Excel save UTF-8 with a byte order mark: invisible, it is not part of the first setting's name.
        let unmarked = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
        let lines = unmarked.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where longestMarkRun(line) > maxMarks {
            problems.append(.syntax(line: index + 1, "more than \(maxMarks) combining marks on one character (Unicode's stream-safe limit); "
                          + "pango's time on every card grows with the square of such a run"))
        }
        var number = 0
        var separator: Int?
        for line in lines {
            number += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "---" { separator = number; break }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.firstIndex(of: ":") else {
                problems.append(
                    .syntax(line: number, "expected \"name: value\" or \"---\" before the wording"))
                continue
            }
            let name = trimmed[..<colon].trimmingCharacters(in: .whitespaces)
            let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "organisation": template.organisation = value
            case "language": template.language = value.isEmpty ? "en" : value
            case "logo": template.logoPath = value.isEmpty ? nil : (value.hasPrefix("/") ? value : "\(folder)/\(value)")
            case "title":
                // The value's column on the line: the placeholders' places are the line's.
                let afterColon = line.firstIndex(of: ":").map { line[line.index(after: $0)...] } ?? ""
                let start = line.count - afterColon.count + afterColon.prefix { $0 == " " || $0 == "\t" }.count + 1
                template.title = TemplateText.parse(value, firstLine: number, firstColumn: start, unknown: &unknown, problems: &problems)
            case "code_label": template.codeLabel = value
            case "admin_label": template.adminLabel = value
            default: problems.append(.unknownSetting(line: number, name))
            }
        }
        if let separator {
            // Blank lines before the wording are dropped: its first line is counted after them.
            let rest = lines[separator...]
            let blank = rest.prefix { $0.trimmingCharacters(in: .whitespaces).isEmpty }.count
            let wording = rest.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            let indent = rest.dropFirst(blank).first.map { $0.prefix { $0 == " " || $0 == "\t" }.count } ?? 0
            template.body = TemplateText.parse(wording, firstLine: separator + 1 + blank, firstColumn: indent + 1,
                                               unknown: &unknown, problems: &problems)
        } else {
            problems.append(
                .syntax(line: number, "no \"---\" line between the settings and the wording"))
        }
        template.columns = unknown
        if let logo = template.logoPath, !logo.lowercased().hasSuffix(".png"), !logo.lowercased().hasSuffix(".svg") {
            problems.append(.logo(path: logo, reason: "a logo is a .png or an .svg file"))
        }
        template.problems = problems.enumerated()
            .sorted { (Self.line(of: $0.element) ?? .max, $0.offset) < (Self.line(of: $1.element) ?? .max, $1.offset) }
            .map(\.element)
        return template
    }

    /// Where a problem is, for the order they are listed in (a file's problems have no line).
    private static func line(of problem: SheetTemplateError) -> Int? {
        switch problem {
        case .syntax(let line, _, _), .unknownSetting(let line, _): return line
        default: return nil
        }
    }

    /// The template used without --template: the same text as Templates/sheets/invitation.txt.
    static let builtInText = """
        # TribeBoard invitation. Settings (name: value) above the --- line, the wording below it.
        # Placeholders: {family_name} {admin_name} {code} {external_id} {organisation}; {{ and }} are braces.
        organisation: TribeBoard
        language: en
        title: Welcome to TribeBoard, {family_name}
        code_label: Family code
        admin_label: Administrator
        ---
        Install TribeBoard, choose “Join a family” and scan this QR code, or type the code {code}. \
        Keep it private: whoever holds the code can ask to join {family_name}.
        """

    package static func builtIn() -> SheetTemplate {
        parse(builtInText, folder: ".")
    }
}
