//
//  WatchWidgetBundle.swift
//  WatchWidget
//
//  Created by Mark Schmidt on 1/27/26.
//

import SwiftUI
import WidgetKit

@main
struct WatchWidgetBundle: WidgetBundle {
    var body: some Widget {
        VehicleStatusComplication()
    }
}
