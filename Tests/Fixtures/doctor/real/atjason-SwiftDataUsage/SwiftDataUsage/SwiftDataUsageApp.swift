

























    ])
    let modelConfiguration = ModelConfiguration(
      schema: schema,
  //    cloudKitDatabase: .private("iCloud.net.toolinbox.SwiftDataUsage"),
      isStoredInMemoryOnly: false
    )
    
