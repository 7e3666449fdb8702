import Foundation
import Synchronization

/// Finds container references in Swift and Objective-C sources: string literals only where a
/// container API takes one (`CKContainer(identifier:)`, `containerWithIdentifier:`,
/// `cloudKitDatabase: .private(…)`, `NSPersistentCloudKitContainerOptions`), and names used there,
/// followed to what binds them (constants, default parameter values, arguments, `#define`s, an
/// Info.plist key). A label alone (`CloudKitDiagnostic(containerIdentifier:)`) is no container.
/// Comments and string contents are skipped by a small lexer, not a regex over the raw text.
package enum SwiftContainerLiterals {
    /// Folders never scanned: build products, dependencies, version control.
    static let skippedFolders: Set<String> = [
        ".build", ".git", "DerivedData", "Pods", "Carthage", "node_modules", ".swiftpm"
    ]
    static let maxFiles = 20_000
    static let maxFileSize = 2_000_000

    /// What a name is bound to: a literal (possibly interpolated) or an Info.plist key.
    typealias Binding = (value: ContainerReference.Value, location: SourceLocation)

    /// One file's findings: references made directly, names bound to literals, and names used in
    /// container positions (so a binding in another file can be matched).
    package struct FileScan: Sendable {
        var direct: [ContainerReference] = []
        var bindings: [String: [Binding]] = [:]
        var namedUses: [(name: String, call: String, location: SourceLocation)] = []
    }

    /// Each file's scan, kept for one doctor run: targets that link the same packages (an app in
    /// several flavours, its extensions) read the same files, and a file is lexed once.
    package final class ScanCache: Sendable {
        private let scans = Mutex<[String: FileScan?]>([:])

        package init() {}

        func scan(_ path: String, display: (String) -> String) -> FileScan? {
            if let done = scans.withLock({ $0[path] }) { return done }
            let result =
                (try? ProjectFileReader.read(path, limit: SwiftContainerLiterals.maxFileSize))
                .map { SwiftContainerLiterals.scan(Array($0), path: display(path)) }
            scans.withLock { $0[path] = result }
            return result
        }
    }

    /// Every reference in `files`, names resolved across them (sorted by path, then line).
    package static func references(in files: [String], display: (String) -> String,
                                   cache: ScanCache = ScanCache()) -> [ContainerReference] {
        let scans = files.compactMap { cache.scan($0, display: display) }
        var bindings: [String: [Binding]] = [:]
        for scan in scans { bindings.merge(scan.bindings) { $0 + $1 } }
        // A fallback named after an Info.plist lookup (`?? defaultIdentifier`) is the literal bound
        // to it.
        let resolve = { (value: ContainerReference.Value) -> ContainerReference.Value in
            guard case .infoPlist(let key, .name(let name)?) = value else { return value }
            let literals = Set(
                (bindings[name] ?? []).compactMap { binding -> String? in
                    if case .literal(let text) = binding.value { return text }
                    return nil
                })
            return literals.count == 1
                ? .infoPlist(key: key, fallback: literals.first.map { .literal($0) }) : value
        }
        var references = scans.flatMap(\.direct).map {
            ContainerReference(value: resolve($0.value), call: $0.call, location: $0.location)
        }
        // A binding several uses reach is one reference (a set: a project may bind thousands).
        var seen = Set(
            references.map { Key(path: $0.location.path, line: $0.location.line, value: $0.value) })
        for scan in scans {
            for use in scan.namedUses {
                let parts = use.name.split(separator: ".").filter {
                    $0 != "rawValue" && $0 != "self"
                }
                let name = String(parts.last ?? "")
                let via = "\(use.call) via \(use.name) (\(use.location))"
                // A name bound in the file that uses it is that binding (two services may each
                // have their own `containerID`); only a name the file does not bind is looked up
                // in the others.
                let everywhere = bindings[name] ?? []
                let here = everywhere.filter { $0.location.path == use.location.path }
                let bound = here.isEmpty ? everywhere : here
                if bound.isEmpty {
                    references.append(
                        ContainerReference(
                            value: .unresolved(name: use.name), call: use.call,
                            location: use.location))
                }
                for binding in bound
                where seen.insert(
                    Key(
                        path: binding.location.path, line: binding.location.line,
                        value: binding.value)
                ).inserted {
                    references.append(
                        ContainerReference(
                            value: resolve(binding.value), call: via, location: binding.location))
                }
            }
        }
        return references.sorted {
            ($0.location.path, $0.location.line ?? 0) < ($1.location.path, $1.location.line ?? 0)
        }
    }

    /// Where a reference is and what it names.
    private struct Key: Hashable {
        let path: String
        let line: Int?
        let value: ContainerReference.Value
    }

    package static func scan(_ source: [UInt8], path: String) -> FileScan {
        var result = FileScan()
        let raw = String(decoding: source, as: UTF8.self)
        guard ContainerPatterns.hints.contains(where: raw.contains) else { return result }
        var lexer = SwiftLiteralLexer(source)
        let literals = lexer.stringLiterals()
        let code = lexer.code
        let lineStarts = [0] + code.indices.filter { code[$0] == 0x0A }.map { $0 + 1 }
        let lineOf = { (offset: Int) in (lineStarts.lastIndex { $0 <= offset } ?? 0) + 1 }
        for literal in literals {
            let before = String(decoding: code[max(0, literal.offset - 240)..<literal.offset], as: UTF8.self)
            let location = SourceLocation(path: path, line: literal.line)
            // A container identifier starts with "iCloud."; an interpolation may hide that.
            if literal.text.hasPrefix("iCloud") || literal.text.hasPrefix("\\(") {
                let value = value(of: literal, code: code)
                if let call = ContainerPatterns.positions.first(where: { matches($0.pattern + "$", before) })?.call {
                    result.direct.append(ContainerReference(value: value, call: call, location: location))
                } else if literal.text.hasPrefix("iCloud"), let name = boundName(before) {
                    result.bindings[name, default: []].append((value, location))
                }
            } else if let lookup = firstMatch(ContainerPatterns.infoPlistLookup, before) {
                // `CKContainer(identifier: Bundle.main.object(forInfoDictionaryKey: "KEY") as!
                // String)`, or a name bound to that lookup.
                let stripped = String(before[..<lookup.lowerBound])
                let value = ContainerReference.Value.infoPlist(key: literal.text, fallback: fallback(after: literal, in: literals, code: code))
                if let call = ContainerPatterns.positions.first(where: { matches($0.pattern + #"(?:\(\s*)?$"#, stripped) })?.call {
                    result.direct.append(ContainerReference(value: value, call: call, location: location))
                } else if let name = capture(ContainerPatterns.infoPlistBinding, stripped) ?? boundName(stripped) {
                    result.bindings[name, default: []].append((value, location))
                }
            } else if !literal.interpolated, let label = capture(ContainerPatterns.argument, before),
                      label.lowercased().contains("container"),
                      !ContainerPatterns.positions.contains(where: { matches($0.pattern + "$", before) }) {
                // `privateSynchronizer(containerName: "your-iCloud-container")`: whatever the literal,
                // it is the container where a library passes that parameter to `CKContainer(identifier:)`.
                result.bindings[label, default: []].append((.literal(literal.text), location))
            }
        }
        let text = String(decoding: code, as: UTF8.self)
        let persistent = matches(#"[cC]ontainerIdentifier"#, text) ? [] : ContainerPatterns.persistentDefaults
        for (pattern, call) in ContainerPatterns.defaults + persistent {
            for (offset, _) in captures(pattern, text, group: 0) {
                let location = SourceLocation(path: path, line: lineOf(offset))
                result.direct.append(
                    ContainerReference(value: .defaultContainer, call: call, location: location))
            }
        }
        for (pattern, call) in ContainerPatterns.positions {
            for (offset, name) in captures(pattern + #"([A-Za-z_][A-Za-z0-9_.]*)\s*[,)\]\n]"#, text, group: 1)
                where !["iCloud", "nil", "self"].contains(name) && !name.hasPrefix("Bundle.") {
                result.namedUses.append((name, call, SourceLocation(path: path, line: lineOf(offset))))
            }
            // `CKContainer(identifier: icloudIdentifier())`: built by a function at run time, never bound.
            for (offset, name) in captures(pattern + #"([A-Za-z_][A-Za-z0-9_.]*)\s*\(\s*\)"#, text, group: 1)
                where !name.hasPrefix("Bundle.") && !name.hasSuffix("CKContainer") {
                result.namedUses.append((name + "()", call, SourceLocation(path: path, line: lineOf(offset))))
            }
        }
        return result
    }

    /// `?? "iCloud.…"` or `?? NAME` after an Info.plist lookup, on the same line: what the code
    /// takes when the Info.plist does not set the key.
    private static func fallback(
        after lookup: SwiftLiteralLexer.Literal, in literals: [SwiftLiteralLexer.Literal],
        code: [UInt8]
    ) -> ContainerReference.Fallback? {
        let rest = code[lookup.end..<min(code.count, lookup.end + 240)]
        let line = String(decoding: rest.prefix { $0 != 0x0A }, as: UTF8.self)
        guard let range = line.range(of: #"\?\?\s*"#, options: .regularExpression) else {
            return nil
        }
        let start = lookup.end + line.utf8.distance(from: line.startIndex, to: range.upperBound)
        if let literal = literals.first(where: { $0.offset == start }) {
            return literal.text.hasPrefix("iCloud") && !literal.interpolated
                ? .literal(literal.text) : nil
        }
        return capture(#"^([A-Za-z_][A-Za-z0-9_.]*)"#, String(line[range.upperBound...])).map {
            .name(String($0.split(separator: ".").last ?? ""))
        }
    }

    /// The name the code before a literal binds it to, if any.
    private static func boundName(_ before: String) -> String? {
        capture(ContainerPatterns.define, before) ?? capture(ContainerPatterns.binding, before)
            ?? capture(ContainerPatterns.argument, before)
    }

    /// A literal in a container position: as written, completed with the bundle id, or
    /// unverifiable.
    private static func value(of literal: SwiftLiteralLexer.Literal, code: [UInt8])
        -> ContainerReference.Value
    {
        if literal.interpolated { return .interpolated(literal.text) }
        let after = String(
            decoding: code[literal.end..<min(code.count, literal.end + 120)], as: UTF8.self)
        if matches(#"^\s*\+\s*\(?\s*Bundle\s*\.\s*main\s*\.\s*bundleIdentifier"#, after) {
            return .bundleIDSuffix(prefix: literal.text)
        }
        if matches(#"^\s*\+"#, after) { return .interpolated(literal.text + " + …") }
        return .literal(literal.text)
    }

    /// Swift and Objective-C files below `folder` (build products and dependencies left out).
    package static func codeFiles(below folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String, files.count < maxFiles {
            let name = (relative as NSString).lastPathComponent
            if skippedFolders.contains(name) || name.hasSuffix(".xcodeproj") {
                enumerator.skipDescendants()
            } else if ContainerPatterns.codeExtensions.contains((name as NSString).pathExtension) {
                files.append(folder + "/" + relative)
            }
        }
        return files.sorted()
    }

    /// Compiled once a process: a few dozen patterns, each used on every file scanned.
    private static let compiled = Mutex<[String: NSRegularExpression]>([:])

    private static func regex(_ pattern: String) -> NSRegularExpression? {
        if let done = compiled.withLock({ $0[pattern] }) { return done }
        guard let made = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        else { return nil }
        compiled.withLock { $0[pattern] = made }
        return made
    }

    static func matches(_ pattern: String, _ text: String) -> Bool {
        guard
            let regex = regex(
                pattern.hasSuffix("$") ? String(pattern.dropLast()) + #"\z"# : pattern)
        else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private static func capture(_ pattern: String, _ text: String) -> String? {
        guard
            let regex = regex(
                pattern.hasSuffix("$") ? String(pattern.dropLast()) + #"\z"# : pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    private static func firstMatch(_ pattern: String, _ text: String) -> Range<String.Index>? {
        guard let regex = regex(String(pattern.dropLast()) + #"\z"#),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
        else { return nil }
        return Range(match.range, in: text)
    }

    private static func captures(_ pattern: String, _ text: String, group: Int) -> [(Int, String)] {
        guard let regex = regex(pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            match in
            guard let range = Range(match.range(at: group), in: text) else { return nil }
            return (
                text.utf8.distance(from: text.startIndex, to: range.lowerBound), String(text[range])
            )
        }
    }
}
