import Foundation

/// Reads the CloudKit Schema Language (`.ckdb`, as `cktool export-schema` writes and
/// `import-schema` reads it) following the grammar of Apple's "Integrating a Text-Based Schema
/// into Your Workflow": `DEFINE SCHEMA`, then `CREATE ROLE name;` and
/// `RECORD TYPE name ( field type [QUERYABLE|SORTABLE|SEARCHABLE]..., GRANT perm[, perm] TO role,
/// ... );`.
public enum SchemaParser {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    static let primitiveTypes: Set<String> = [
        "ASSET", "BYTES", "DOUBLE", "INT64", "LOCATION", "REFERENCE", "STRING", "TIMESTAMP"
    ]

    public static func parse(_ text: String) throws(Failure) -> ContainerSchema {
        var tokens = Tokens(SchemaTokenizer.tokens(of: text))
        try tokens.expectWords("DEFINE", "SCHEMA")
        var schema = ContainerSchema()
        while !tokens.atEnd {
            if tokens.peekWord("CREATE") {
                try tokens.expectWords("CREATE", "ROLE")
                schema.roles.insert(try tokens.name())
            } else {
                try tokens.expectWords("RECORD", "TYPE")
                let name = try tokens.name()
                guard schema.types[name] == nil else {
                    throw tokens.failure("record type \(name) is defined twice")
                }
                schema.types[name] = try recordType(&tokens, roles: schema.roles)
            }
            try tokens.expect(";")
        }
        return schema
    }

    private static func recordType(_ tokens: inout Tokens, roles: Set<String>) throws(Failure)
        -> RecordTypeSchema
    {
        try tokens.expect("(")
        // Grants given in the file replace the defaults; a type without any keeps them.
        var type = RecordTypeSchema(fields: [:], grants: [:])
        var sawGrant = false
        while !tokens.peek(")") {
            if tokens.peekWord("GRANT") {
                sawGrant = true
                let (permissions, role) = try grant(&tokens)
                guard role.hasPrefix("_") || roles.contains(role) else {
                    throw tokens.failure("role \(role) is not defined (CREATE ROLE)")
                }
                type.grants[role, default: []].formUnion(permissions)
            } else {
                let field = try tokens.name()
                guard type.fields[field] == nil else {
                    throw tokens.failure("field \(field) is defined twice")
                }
                type.fields[field] = try fieldDefinition(&tokens)
            }
            guard tokens.peek(",") else { break }
            tokens.advance()
        }
        try tokens.expect(")")
        if !sawGrant { type.grants = RecordTypeSchema.defaultGrants }
        // CloudKit keeps the system fields whether or not the file names them.
        for (name, field) in RecordTypeSchema.systemFields where type.fields[name] == nil {
            type.fields[name] = field
        }
        return type
    }

    private static func grant(_ tokens: inout Tokens) throws(Failure) -> (Set<Permission>, String) {
        try tokens.expectWords("GRANT")
        var permissions: Set<Permission> = []
        repeat {
            if !permissions.isEmpty { tokens.advance() }
            let word = try tokens.word()
            guard let permission = Permission(rawValue: word.uppercased()) else {
                throw tokens.failure("unknown permission \(word)")
            }
            permissions.insert(permission)
        } while tokens.peek(",")
            && Permission(rawValue: tokens.lookahead(1)?.uppercased() ?? "") != nil
        try tokens.expectWords("TO")
        return (permissions, try tokens.name())
    }

    private static func fieldDefinition(_ tokens: inout Tokens) throws(Failure) -> SchemaField {
        var field = SchemaField(type: try dataType(&tokens))
        while let option = tokens.lookahead(0)?.uppercased(),
            ["QUERYABLE", "SORTABLE", "SEARCHABLE"].contains(option)
        {
            tokens.advance()
            switch option {
            case "QUERYABLE": field.queryable = true
            case "SORTABLE": field.sortable = true
            default: field.searchable = true
            }
        }
        return field
    }

    private static func dataType(_ tokens: inout Tokens) throws(Failure) -> String {
        let line = tokens.line
        var word = try tokens.word().uppercased()
        if word == "LIST" {
            try tokens.expect("<")
            let element = try dataType(&tokens)
            try tokens.expect(">")
            return element + "_LIST"
        }
        if word == "ENCRYPTED" { word = try tokens.word().uppercased() }
        if word == "NUMBER" {
            // NUMBER [PREFERRED AS INT64|DOUBLE]
            guard tokens.peekWord("PREFERRED") else { return "DOUBLE" }
            try tokens.expectWords("PREFERRED", "AS")
            word = try tokens.word().uppercased()
        }
        guard primitiveTypes.contains(word) else {
            throw Failure(line: line, message: "unknown field type \(word)")
        }
        return word
    }
}

/// A cursor over the tokens, with the line of each for messages.
struct Tokens {
    private let items: [SchemaTokenizer.Token]
    private var position = 0

    init(_ items: [SchemaTokenizer.Token]) { self.items = items }

    var atEnd: Bool { position >= items.count }
    var line: Int { atEnd ? (items.last?.line ?? 1) : items[position].line }

    func lookahead(_ offset: Int) -> String? {
        position + offset < items.count ? items[position + offset].text : nil
    }

    func peek(_ text: String) -> Bool { lookahead(0) == text && items[position].quoted == false }
    func peekWord(_ word: String) -> Bool {
        !atEnd && !items[position].quoted && items[position].text.uppercased() == word
    }

    mutating func advance() { position += 1 }

    func failure(_ message: String) -> SchemaParser.Failure {
        SchemaParser.Failure(line: line, message: message)
    }

    mutating func expect(_ symbol: String) throws(SchemaParser.Failure) {
        guard peek(symbol) else {
            throw failure("expected \(symbol), found \(lookahead(0) ?? "the end")")
        }
        advance()
    }

    mutating func expectWords(_ words: String...) throws(SchemaParser.Failure) {
        for word in words {
            guard peekWord(word) else {
                throw failure("expected \(word), found \(lookahead(0) ?? "the end")")
            }
            advance()
        }
    }

    /// A keyword or type name: unquoted.
    mutating func word() throws(SchemaParser.Failure) -> String {
        guard !atEnd, !items[position].quoted, items[position].isName else {
            throw failure("expected a word, found \(lookahead(0) ?? "the end")")
        }
        defer { advance() }
        return items[position].text
    }

    /// A type, field or role name: quoted or not.
    mutating func name() throws(SchemaParser.Failure) -> String {
        guard !atEnd, items[position].quoted || items[position].isName else {
            throw failure("expected a name, found \(lookahead(0) ?? "the end")")
        }
        defer { advance() }
        return items[position].text
    }
}

enum SchemaTokenizer {
    struct Token {
        let text: String
        let quoted: Bool
        let line: Int
        var isName: Bool { quoted || text.first.map { $0.isLetter || $0 == "_" } == true }
    }

    /// Names, "quoted names", the symbols ( ) , ; < >; `//` and `--` comments to the end of the
    /// line, `/* */` comments anywhere.
    static func tokens(of text: String) -> [Token] {
        var tokens: [Token] = []
        var line = 1
        var characters = Array(text)[...]
        while let character = characters.first {
            if character == "\n" { line += 1 }
            if character.isWhitespace { characters = characters.dropFirst(); continue }
            // `/* ... */` (Apple's grammar allows block comments; they may span lines). One never
            // closed is left as a `/*` token, which the parser then names with its line.
            if character == "/", characters.dropFirst().first == "*" {
                let body = characters.dropFirst(2)
                var end = body.startIndex
                while end < body.endIndex,
                    !(body[end] == "*" && body.index(after: end) < body.endIndex
                        && body[body.index(after: end)] == "/")
                {
                    end = body.index(after: end)
                }
                guard end < body.endIndex else {
                    tokens.append(Token(text: "/*", quoted: false, line: line))
                    break
                }
                line += body[body.startIndex..<end].filter { $0 == "\n" }.count
                characters = body[body.index(end, offsetBy: 2)...]
                continue
            }
            if (character == "/" || character == "-"), characters.dropFirst().first == character {
                characters = characters.drop { $0 != "\n" }
                continue
            }
            if character == "\"" {
                let body = characters.dropFirst().prefix { $0 != "\"" && $0 != "\n" }
                tokens.append(Token(text: String(body), quoted: true, line: line))
                characters = characters.dropFirst(body.count + 2)
                continue
            }
            if "(),;<>".contains(character) {
                tokens.append(Token(text: String(character), quoted: false, line: line))
                characters = characters.dropFirst()
                continue
            }
            let word = characters.prefix { !$0.isWhitespace && !"(),;<>\"".contains($0) }
            tokens.append(Token(text: String(word), quoted: false, line: line))
            characters = characters.dropFirst(max(word.count, 1))
        }
        return tokens
    }
}
