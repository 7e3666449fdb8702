import Foundation

/// An `.xcconfig` file read as Xcode reads it: `KEY = value` lines (conditions allowed), `//`
/// comments, `#include "path"` (a missing file is an error) and `#include? "path"` (optional),
/// paths relative to the including file. Includes are flattened in order into one layer.
enum XCConfigFile {
    static let maxDepth = 16
    static let maxFileSize = 4_000_000

    struct Problem: Sendable, Equatable {
        package let message: String
        package let location: SourceLocation
    }

    package struct Contents: Sendable {
        var assignments: [BuildSettingAssignment] = []
        var missingOptionalIncludes: [String] = []
        package var problems: [Problem] = []
        /// Every file read, for listing and for case warnings.
        package var files: [String] = []
    }

    /// `display` turns an absolute path into the one shown in findings.
    package static func read(_ path: String, display: (String) -> String) -> Contents {
        var contents = Contents()
        var visiting: Set<String> = []
        read(path, display: display, depth: 0, visiting: &visiting, into: &contents)
        return contents
    }

    private static func read(_ path: String, display: (String) -> String, depth: Int, visiting: inout Set<String>, into contents: inout Contents) {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        guard depth < maxDepth, !visiting.contains(standardized) else {
            contents.problems.append(Problem(message: "#include cycle or nesting deeper than \(maxDepth) at \(display(standardized))",
                                             location: SourceLocation(path: display(standardized), line: nil)))
            return
        }
        let data: Data
        do {
            data = try ProjectFileReader.read(standardized, limit: maxFileSize)
        } catch {
            let reason: String
            switch error {
            case .notFound where standardized.contains("/Pods/Target Support Files/"):
                reason = "does not exist: CocoaPods writes it (run `pod install`)"
            case .notFound: reason = "does not exist (a file the repository leaves out?)"
            case .unreadable(_, let why): reason = "cannot be read (\(why))"
            default: reason = "cannot be read"
            }
            contents.problems.append(Problem(message: "\(display(standardized)), the base configuration, \(reason)",
                                             location: SourceLocation(path: display(standardized), line: nil)))
            return
        }
        visiting.insert(standardized)
        defer { visiting.remove(standardized) }
        contents.files.append(standardized)
        let folder = (standardized as NSString).deletingLastPathComponent
        // Any line break: "\r\n" (a file saved on Windows) is one Character, so a split on "\n" kept it one line.
        let lines = String(decoding: data, as: UTF8.self)
            .split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, rawLine) in lines.enumerated() {
            let line = stripComment(rawLine).trimmingCharacters(in: .whitespacesAndNewlines)
            let location = SourceLocation(path: display(standardized), line: index + 1)
            if line.hasPrefix("#include") {
                let optional = line.hasPrefix("#include?")
                guard let target = quoted(line) else { continue }
                let includePath = target.hasPrefix("/") ? target : folder + "/" + target
                let resolved = CaseInsensitivePath.resolve(includePath)
                if let resolved {
                    read(resolved.path, display: display, depth: depth + 1, visiting: &visiting, into: &contents)
                } else if optional {
                    contents.missingOptionalIncludes.append("\(target) (#include? at \(location))")
                } else {
                    contents.problems.append(Problem(message: "#include \"\(target)\" at \(location): the file does not exist", location: location))
                }
                continue
            }
            guard let equals = assignment(in: line), !line.hasPrefix("#") else { continue }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            // Some projects end xcconfig lines with `;` as in a pbxproj; Xcode ignores it.
            if value.hasSuffix(";") {
                value = String(value.dropLast()).trimmingCharacters(in: .whitespaces)
            }
            let key = String(line[..<equals])
            guard !key.isEmpty else { continue }
            contents.assignments.append(
                BuildSettingAssignment.parse(key: key, value: value, location: location))
        }
    }

    /// The `=` of `KEY[sdk=macosx*] = value`: the first one outside the conditions' brackets.
    private static func assignment(in line: String) -> String.Index? {
        var depth = 0
        var index = line.startIndex
        while index < line.endIndex {
            switch line[index] {
            case "[": depth += 1
            case "]": depth -= 1
            case "=" where depth <= 0: return index
            default: break
            }
            index = line.index(after: index)
        }
        return nil
    }

    /// `//` starts a comment, except inside a URL-like `://`.
    private static func stripComment(_ line: Substring) -> Substring {
        var search = line.startIndex
        while let range = line[search...].range(of: "//") {
            if range.lowerBound > line.startIndex, line[line.index(before: range.lowerBound)] == ":"
            {
                search = range.upperBound
                continue
            }
            return line[..<range.lowerBound]
        }
        return line
    }

    private static func quoted(_ line: String) -> String? {
        guard let open = line.firstIndex(of: "\"") else { return nil }
        let rest = line[line.index(after: open)...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<close])
    }
}
