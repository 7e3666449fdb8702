
//  HeatLabModelContainer.swift


//  Shared CloudKit configuration
//  Note: Model containers are defined inline in each app's entry point






// MARK: - CloudKit Configuration

/// CloudKit container identifier for iOS automatic sync
enum CloudKitConfig {
    static let containerID = "iCloud.com.macpheelabs.heatlab"



