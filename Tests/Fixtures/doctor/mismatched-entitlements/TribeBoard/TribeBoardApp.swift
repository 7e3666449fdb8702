import SwiftUI

@main
struct TribeBoardApp: App {
    var body: some Scene { WindowGroup { Text("TribeBoard") } }
}
