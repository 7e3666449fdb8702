
//  CloudKitStatus.swift


//  Monitors iCloud account status for CloudKit sync


import CloudKit




final class CloudKitStatus {












            accountStatus = try await CKContainer(identifier: "iCloud.com.macpheelabs.heatlab").accountStatus()


















