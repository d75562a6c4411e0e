import Testing

@testable import InspectorUI

@Suite("the key table and the focus")
struct KeyTableTests {
  @Test("Tab and Shift-Tab go round every screen's panes, past either end")
  func focusCycles() {
    #expect(PaneID.record.cycled(by: 1) == .pending)
    #expect(PaneID.payload.cycled(by: 1) == .record)
    #expect(PaneID.record.cycled(by: -1) == .payload)
    #expect(ReceiverScreen.Pane.body.cycled(by: 1) == .devices)
    #expect(ReceiverScreen.Pane.devices.cycled(by: -1) == .body)
    #expect(ReceiverScreen.Pane.timeline.cycled(by: -1) == .devices)
    // Once round, forwards or back, is where it started.
    for pane in PaneID.allCases {
      #expect(pane.cycled(by: PaneID.allCases.count) == pane)
      #expect(pane.cycled(by: -1).cycled(by: 1) == pane)
    }
  }

  @Test("no key is bound twice on a screen, in any context (#53: Enter was, on the receiver's)")
  func noKeyTwice() {
    let contexts: [KeyContext] = [
      .normal, .commandLine, .filter, .help, .attributeEditor, .tagEditor, .contactKeyEditor,
      .tooSmall,
    ]
    for context in contexts {
      for screen in [InspectorModel.Screen.device, .receiver, .fleet] {
        var seen: [Key: String] = [:]
        for binding in KeyTable.bindings(context, on: screen) {
          for key in binding.keys {
            #expect(
              seen[key] == nil,
              "\(key) twice on \(screen) (\(context)): \(seen[key] ?? "") / \(binding.help)")
            seen[key] = binding.help
          }
        }
      }
    }
  }

  @Test("F, the simulated fleet, is not offered where real apps' registrations are received")
  func fleetNotOnReceiver() {
    #expect(KeyTable.action(for: .character("F"), in: .normal, on: .device) == .fleet)
    #expect(KeyTable.action(for: .character("F"), in: .normal, on: .fleet) == .fleet)
    #expect(KeyTable.action(for: .character("F"), in: .normal, on: .receiver) == nil)
  }

  @Test("Ctrl-C is in the key table: quit, listed where q is")
  func controlC() {
    for screen in [InspectorModel.Screen.device, .receiver, .fleet] {
      #expect(KeyTable.action(for: .control("c"), in: .normal, on: screen) == .quit)
    }
  }

  @Test("each key does the one action the table gives it: no binding rewritten on the way")
  func oneActionPerKey() {
    let receiver = InspectorModel.Screen.receiver
    for pane in ReceiverScreen.Pane.allCases {
      #expect(KeyTable.action(for: pane.key, in: .normal, on: receiver) == .focusReceiver(pane))
    }
    for pane in PaneID.allCases {
      #expect(KeyTable.action(for: pane.key, in: .normal, on: .device) == .focus(pane))
    }
    #expect(KeyTable.action(for: .pageDown, in: .normal, on: receiver) == .pageDown)
    #expect(KeyTable.action(for: .pageUp, in: .normal, on: receiver) == .pageUp)
    #expect(KeyTable.action(for: .character("G"), in: .normal, on: receiver) == .bottom)
    #expect(KeyTable.action(for: .character("g"), in: .normal, on: receiver) == .top)
    for context in [KeyContext.commandLine, .attributeEditor, .tagEditor] {
      #expect(KeyTable.action(for: .up, in: context) == .scrollUp)
      #expect(KeyTable.action(for: .down, in: context) == .scrollDown)
    }
    // A key listed twice in one binding would leave one of its actions unreachable.
    let contexts: [KeyContext] = [
      .normal, .commandLine, .filter, .help, .attributeEditor, .tagEditor, .contactKeyEditor,
      .tooSmall,
    ]
    for context in contexts {
      for screen in [InspectorModel.Screen.device, .receiver, .fleet] {
        for binding in KeyTable.bindings(context, on: screen) {
          #expect(Set(binding.keys).count == binding.keys.count, "\(binding.help)")
        }
      }
    }
  }

  @Test("the receiver's pane keys focus its own panes; Page Down pages down")
  func receiverKeys() {
    var m = InspectorModel(width: 120, height: 40, title: "t", receivingAt: "http://x")
    _ = Inspector.update(&m, .key(.character("4")))
    #expect(m.receiver.focus == .body)
    _ = Inspector.update(&m, .key(.tab))
    #expect(m.receiver.focus == .devices)
    _ = Inspector.update(&m, .key(.backTab))
    #expect(m.receiver.focus == .body)
    // The device screen's 5-7 are not the receiver's: refused as not on this screen.
    _ = Inspector.update(&m, .key(.character("7")))
    #expect(m.receiver.focus == .body && m.flash?.isError == true)
  }
}
