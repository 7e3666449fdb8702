import Foundation

/// Finds a file as a default (case-insensitive) macOS volume would: the exact path first, then
/// each component matched without regard to case. A fallback is reported, since a case-sensitive
/// volume (and CI on Linux) would not find the file.
package struct CaseInsensitivePath: Sendable, Equatable {
    package let path: String
    /// True when the path on disk differs in case from the one written.
    package let caseDiffers: Bool

    package static func resolve(_ written: String) -> CaseInsensitivePath? {
        let standardized = URL(fileURLWithPath: written).standardizedFileURL.path
        if FileManager.default.fileExists(atPath: standardized) {
            return CaseInsensitivePath(path: standardized, caseDiffers: false)
        }
        var current = "/"
        for component in standardized.split(separator: "/").map(String.init) {
            let candidate = (current as NSString).appendingPathComponent(component)
            if FileManager.default.fileExists(atPath: candidate) {
                current = candidate
                continue
            }
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: current),
                let match = entries.sorted().first(where: {
                    $0.lowercased() == component.lowercased()
                })
            else { return nil }
            current = (current as NSString).appendingPathComponent(match)
        }
        return CaseInsensitivePath(path: current, caseDiffers: true)
    }
}
