import Foundation
import TribeBoardDomain
import TribeBoardSupport

/// How the file's header names become the columns provisioning reads. A form export names its
/// columns as questions ("Family name", "Admin display name"): a header matches a column when
/// they are equal once case, accents and what separates words (spaces, underscores, hyphens,
/// punctuation) are set aside; anything else is named with `--map "HEADER=column"`.
package struct HeaderMapping: Sendable, Equatable {
    /// `--map` pairs, in the order given.
    package private(set) var explicit: [(header: String, column: FamilyCSVColumn)] = []

    package init() {}

    /// Parses each `HEADER=column` (the last `=` separates them: a header may hold one);
    /// `"First name+Last name=admin_display_name"` joins two headers' cells with a space.
    package init(arguments: [String]) throws(HeaderMappingProblem) {
        for argument in arguments {
            guard let equals = argument.lastIndex(of: "=") else {
                throw .malformed(argument: argument)
            }
            let header = argument[..<equals].trimmingCharacters(in: .whitespaces)
            let field = String(argument[argument.index(after: equals)...])
            guard !header.isEmpty else { throw .malformed(argument: argument) }
            guard let column = Self.column(tolerant: field) else {
                throw .unknownColumn(argument: argument, column: field)
            }
            if let earlier = explicit.first(where: { $0.column == column }) {
                throw .columnTwice(column: column.rawValue, headers: [earlier.header, header])
            }
            if let earlier = explicit.first(where: { Self.key($0.header) == Self.key(header) }) {
                throw .headerTwice(
                    header: header, columns: [earlier.column.rawValue, column.rawValue])
            }
            explicit.append((header, column))
        }
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.explicit.map(\.header) == rhs.explicit.map(\.header)
            && lhs.explicit.map(\.column) == rhs.explicit.map(\.column)
    }

    /// "Family name", "FAMILY-NAME", "Family name:"… compared as one word list: folded, with
    /// whatever is not a letter or digit (spaces, underscores, hyphens, a question's `:` or `?`)
    /// separating words.
    static func key(_ header: String) -> String {
        NameFold.fold(header).split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(
            separator: "_")
    }

    static func column(tolerant header: String) -> FamilyCSVColumn? {
        FamilyCSVColumn(rawValue: key(header))
    }

    /// Which header of `header` feeds each column: the explicit pairs first (a header they name
    /// must be in the file), then exact names, then tolerant matches. Two headers for one column
    /// that only `--map` can tell apart are a problem, not a guess; two exact ones stay
    /// `duplicateColumn`, as before.
    func resolve(_ header: [String]) throws(CSVImportError) -> [ColumnSource] {
        var sources: [ColumnSource] = []
        var taken = Set<Int>()
        for (name, column) in explicit {
            let positions = try Self.positions(of: name, in: header, column: column)
            let shown = positions.map { header[$0] }.joined(separator: " + ")
            sources.append(
                ColumnSource(header: shown, field: column, positions: positions, matched: .map))
            taken.formUnion(positions)
        }
        var matched: [FamilyCSVColumn: [ColumnSource]] = [:]
        for (position, rawName) in header.enumerated() where !taken.contains(position) {
            let name = rawName.trimmed.lowercased()
            if let column = FamilyCSVColumn(rawValue: name) {
                matched[column, default: []].append(
                    ColumnSource(
                        header: rawName, field: column, position: position, matched: .exact))
            } else if let column = Self.column(tolerant: rawName) {
                matched[column, default: []].append(
                    ColumnSource(
                        header: rawName, field: column, position: position, matched: .tolerant))
            }
        }
        for column in FamilyCSVColumn.allCases {
            guard var found = matched[column], !found.isEmpty else { continue }
            // A column --map fed already: other headers for it are left unread (unknown).
            if sources.contains(where: { $0.field == column }) { continue }
            if found.count > 1 {
                if found.filter({ $0.matched == .exact }).count > 1 {
                    throw .duplicateColumn(column.rawValue)
                }
                throw .headerMapping(
                    .ambiguous(column: column.rawValue, headers: found.map(\.header)))
            }
            sources.append(found.removeFirst())
        }
        return sources.sorted { $0.position < $1.position }
    }

    /// The file's header that `name` names, or, when the file has no such header and `name` is
    /// "A+B", each of A and B in turn: their cells are joined with a space (first and last name).
    private static func positions(of name: String, in header: [String], column: FamilyCSVColumn)
        throws(CSVImportError) -> [Int]
    {
        func find(_ name: String) throws(CSVImportError) -> Int? {
            let positions = header.indices.filter { header[$0].trimmed == name }
            let found =
                positions.isEmpty
                ? header.indices.filter { key(header[$0]) == key(name) } : positions
            guard found.count <= 1 else {
                throw .headerMapping(
                    .ambiguous(column: column.rawValue, headers: found.map { header[$0] }))
            }
            return found.first
        }
        if let whole = try find(name) { return [whole] }
        let parts = name.split(separator: "+").map { $0.trimmingCharacters(in: .whitespaces) }
        var positions: [Int] = []
        if parts.count > 1, !parts.contains(where: \.isEmpty) {
            for part in parts {
                guard let position = try find(part) else {
                    throw .headerMapping(
                        .headerNotInFile(header: part, headers: Array(header.prefix(12))))
                }
                positions.append(position)
            }
            return positions
        }
        throw .headerMapping(.headerNotInFile(header: name, headers: Array(header.prefix(12))))
    }
}

extension HeaderMapping {
    /// What to say of a row that repeats an earlier one in every column read. When the file has
    /// columns that were not read (a form's e-mail, phone, time stamp), those are likely what
    /// tells the two apart: the advice names them and the `--map` that reads the likeliest one
    /// as the external id; otherwise, add an external_id column.
    package static func repeatAdvice(unread: [String]) -> String {
        let headers = unread.map(\.trimmed).filter { !$0.isEmpty }
        guard !headers.isEmpty else { return "add an external_id column to tell such rows apart" }
        // A person's e-mail first, then an id or reference, a phone number, the form's time stamp.
        let likely = [
            ["mail", "email", "courriel", "correo"], ["id", "ref", "reference", "number", "numero"],
            ["phone", "telephone", "tel", "mobile", "portable"],
            ["timestamp", "horodateur", "horodatage", "date"]
        ]
        let words = headers.map { key($0).split(separator: "_").map(String.init) }
        func matches(_ index: Int, _ group: [String]) -> Bool {
            words[index].contains { word in
                group.contains { word == $0 || $0.count > 3 && word.hasPrefix($0) }
            }
        }
        let chosen =
            likely.lazy.compactMap { group in headers.indices.first { matches($0, group) } }.first
            ?? 0
        let shown =
            headers.prefix(4).map { "\"\($0)\"" }.joined(separator: ", ")
            + (headers.count > 4 ? " and \(headers.count - 4) more" : "")
        return
            "the columns \(shown) were not read; if they tell such rows apart, read one as the external id: "
            + "--map \(ShellWords.quoted(headers[chosen] + "=external_id"))"
    }
}

/// One column of the report: the header that fed a field, and how it was matched.
package struct ColumnSource: Encodable, Sendable, Equatable {
    package enum Match: String, Encodable, Sendable { case exact, tolerant, map }

    /// The header, or "First name + Last name" for a join.
    package let header: String
    package let field: FamilyCSVColumn
    /// The cells read, in order: more than one for a join.
    let positions: [Int]
    var position: Int { positions.first ?? 0 }
    package let matched: Match

    init(header: String, field: FamilyCSVColumn, position: Int, matched: Match) {
        self.init(header: header, field: field, positions: [position], matched: matched)
    }

    init(header: String, field: FamilyCSVColumn, positions: [Int], matched: Match) {
        (self.header, self.field, self.positions, self.matched) = (
            header, field, positions, matched
        )
    }

    private enum CodingKeys: String, CodingKey { case header, field, matched }
}

extension FamilyCSVColumn: Encodable {}

/// A header mapping that cannot be followed: bad usage (exit 64), naming the header.
package enum HeaderMappingProblem: Error, Equatable, LocalizedError {
    case malformed(argument: String)
    case unknownColumn(argument: String, column: String)
    case headerNotInFile(header: String, headers: [String])
    case ambiguous(column: String, headers: [String])
    /// `--map` twice for one column: a join is written "A+B=column".
    case columnTwice(column: String, headers: [String])
    /// `--map` gives one header two columns.
    case headerTwice(header: String, columns: [String])

    /// The header (or argument) the problem is about.
    package var header: String {
        switch self {
        case .malformed(let argument), .unknownColumn(let argument, _): return argument
        case .headerNotInFile(let header, _): return header
        case .ambiguous(_, let headers), .columnTwice(_, let headers): return headers.first ?? ""
        case .headerTwice(let header, _): return header
        }
    }

    package var errorDescription: String? {
        let columns = FamilyCSVColumn.allCases.map(\.rawValue).joined(separator: ", ")
        switch self {
        case .malformed(let argument):
            return "--map \"\(argument)\": write it as \"HEADER=column\", e.g. --map \"Nom de famille=family_name\""
        case .unknownColumn(let argument, let column):
            return
                "--map \"\(argument)\": \"\(column)\" is not a column provision reads (\(columns))"
        case .headerNotInFile(let header, let headers):
            let names = headers.map { "\"\($0)\"" }.joined(separator: ", ")
            return "--map names the header \"\(header)\", which the file does not have (its header: \(names))"
        case .columnTwice(let column, let headers):
            let named = headers.map { "\"\($0)\"" }.joined(separator: " and ")
            return "--map gives \(column) twice (\(named)): one --map a column; to join the cells of both "
                + "(first and last name) write --map \"\(headers.joined(separator: "+"))=\(column)\""
        case .headerTwice(let header, let columns):
            return "--map reads \"\(header)\" for both \(columns.joined(separator: " and ")): a header feeds one column"
        case .ambiguous(let column, let headers):
            let named = headers.map { "\"\($0)\"" }.joined(separator: " and ")
            return "the headers \(named) both match \(column): say which one with --map \"\(headers.first ?? "")=\(column)\""
        }
    }
}
