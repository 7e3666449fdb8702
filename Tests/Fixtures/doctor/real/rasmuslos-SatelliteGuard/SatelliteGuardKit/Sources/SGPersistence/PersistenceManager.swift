










































                                                    isStoredInMemoryOnly: false,
                                                    allowsSave: true,
                                                    groupContainer: identifier,
                                                    cloudKitDatabase: .private("iCloud.SatelliteGuard"))
        
        modelContainer = try! ModelContainer(for: schema, configurations: [modelConfiguration])
        
