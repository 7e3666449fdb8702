import Foundation
import TribeBoardCloudKit

extension CloudKitConfiguration {
    /// Which source set the container, strongest first as `resolve` applies them: so that a
    /// mismatch can say where the toolkit's value came from.
    package static func containerSource(_ flags: Overrides, environment variables: [String: String])
        -> String
    {
        if flags.container != nil { return "--container" }
        if variables["TRIBEBOARD_CK_CONTAINER"] != nil { return "TRIBEBOARD_CK_CONTAINER" }
        if let path = flags.configFile ?? variables["TRIBEBOARD_CK_CONFIG"],
            (try? ConfigFile.read(path))?["container"] != nil
        {
            return "config file \(path)"
        }
        return "the default"
    }
}
