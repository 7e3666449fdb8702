import Foundation

/// Development pods, `pod 'Name/Subspec', :path => '…'` in the Podfile beside the project (or a
/// folder or two above it): their sources are in the repository and the target links them, as
/// CocoaPods builds it. Read for the target's block of the Podfile (and pods outside any target
/// block).
enum CocoaPodsPathPods {
    /// A Podfile is a few KB.
    static let maxPodfileSize = 1_000_000

    /// Swift and Objective-C files of the path pods `target` uses.
    static func sources(forTarget target: String, projectFolder: String) -> [String] {
        guard let podfile = podfile(near: projectFolder),
            let data = try? ProjectFileReader.read(podfile, limit: maxPodfileSize)
        else { return [] }
        let folder = (podfile as NSString).deletingLastPathComponent
        var blocks: [String?] = []
        var folders: [String] = []
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(
            String.init)
        {
            let code =
                line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map(String.init) ?? ""
            if let name = capture(#"^\s*target\s+['"]([^'"]+)['"]\s*do\b"#, code) {
                blocks.append(name)
            } else if matches(#"\bdo\s*(\|[^|]*\|)?\s*$"#, code) {
                blocks.append(nil)
            } else if matches(#"^\s*end\b"#, code) {
                _ = blocks.popLast()
            } else if let pod = capture(#"^\s*pod\s+['"]([^'"]+)['"]"#, code),
                let path = capture(#":path\s*=>\s*['"]([^'"]+)['"]"#, code)
                    ?? capture(#"path:\s*['"]([^'"]+)['"]"#, code)
            {
                let named = blocks.compactMap { $0 }
                guard named.isEmpty || named.contains(target),
                    let found = sourceFolder(pod: pod, base: FilePaths.join(folder, path))
                else { continue }
                folders.append(found)
            }
        }
        return Array(Set(folders)).sorted().flatMap { SwiftContainerLiterals.codeFiles(below: $0) }
    }

    /// The Podfile in the project's folder or one or two above it (`project 'App/App'` in a Podfile
    /// beside a workspace).
    static func podfile(near folder: String) -> String? {
        var current = folder
        for _ in 0..<3 {
            let candidate = current + "/Podfile"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                return candidate
            }
            current = (current as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// Where a pod's sources are by CocoaPods' conventions (`Name/Classes/Subspec`, `Name/Classes`,
    /// `Name`, `Sources`), the first that exists.
    static func sourceFolder(pod: String, base: String) -> String? {
        let parts = pod.split(separator: "/").map(String.init)
        guard let name = parts.first else { return nil }
        var candidates: [String] = []
        if parts.count > 1 { candidates.append("\(base)/\(name)/Classes/\(parts[1])") }
        candidates += [
            "\(base)/\(name)/Classes", "\(base)/\(name)", "\(base)/Sources/\(name)",
            "\(base)/Sources"
        ]
        return candidates.first { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    }

    private static func capture(_ pattern: String, _ text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return String(text[range])
    }

    private static func matches(_ pattern: String, _ text: String) -> Bool {
        text.range(of: pattern, options: .regularExpression) != nil
    }
}
