//go:build js && wasm

package playground

import "honnef.co/go/js/dom/v2"

// The playground calls dom/v2's methods on its concrete types
// (*dom.BasicHTMLElement, *dom.BasicEvent), never through its interfaces
// (dom.Element, dom.Event, dom.Node): the Go linker keeps a method of every
// type converted to an interface once any interface call of that method's
// name and signature is linked, and dom/v2 wraps each element and event in
// one of some 115 types (wrapHTMLElement, wrapEvent), each with its own
// wrapper of every promoted method. One interface call of Underlying (the
// usual way to get the js.Value back) links 242 wrappers: 50 KB of code,
// 20 KB of the rate-limits module gzip-compressed. So the element or event
// dom/v2 returns is taken apart by a type switch, which calls no method.
// TestUnwrapCoversDOMv2 checks that every type dom/v2's wrapHTMLElement and
// wrapEvent return has its case here.

// elem returns e as a *dom.BasicHTMLElement (nil for nil): the part every
// HTML element type of dom/v2 embeds.
func elem(e dom.Element) *dom.BasicHTMLElement {
	switch e := e.(type) {
	case nil:
		return nil
	case *dom.BasicHTMLElement:
		return e
	case *dom.HTMLAnchorElement:
		return e.BasicHTMLElement
	case *dom.HTMLAppletElement:
		return e.BasicHTMLElement
	case *dom.HTMLAreaElement:
		return e.BasicHTMLElement
	case *dom.HTMLAudioElement:
		return e.BasicHTMLElement
	case *dom.HTMLBRElement:
		return e.BasicHTMLElement
	case *dom.HTMLBaseElement:
		return e.BasicHTMLElement
	case *dom.HTMLBodyElement:
		return e.BasicHTMLElement
	case *dom.HTMLButtonElement:
		return e.BasicHTMLElement
	case *dom.HTMLCanvasElement:
		return e.BasicHTMLElement
	case *dom.HTMLDListElement:
		return e.BasicHTMLElement
	case *dom.HTMLDataElement:
		return e.BasicHTMLElement
	case *dom.HTMLDataListElement:
		return e.BasicHTMLElement
	case *dom.HTMLDetailsElement:
		return e.BasicHTMLElement
	case *dom.HTMLDirectoryElement:
		return e.BasicHTMLElement
	case *dom.HTMLDivElement:
		return e.BasicHTMLElement
	case *dom.HTMLEmbedElement:
		return e.BasicHTMLElement
	case *dom.HTMLFieldSetElement:
		return e.BasicHTMLElement
	case *dom.HTMLFontElement:
		return e.BasicHTMLElement
	case *dom.HTMLFormElement:
		return e.BasicHTMLElement
	case *dom.HTMLFrameElement:
		return e.BasicHTMLElement
	case *dom.HTMLFrameSetElement:
		return e.BasicHTMLElement
	case *dom.HTMLHRElement:
		return e.BasicHTMLElement
	case *dom.HTMLHeadElement:
		return e.BasicHTMLElement
	case *dom.HTMLHeadingElement:
		return e.BasicHTMLElement
	case *dom.HTMLHtmlElement:
		return e.BasicHTMLElement
	case *dom.HTMLIFrameElement:
		return e.BasicHTMLElement
	case *dom.HTMLImageElement:
		return e.BasicHTMLElement
	case *dom.HTMLInputElement:
		return e.BasicHTMLElement
	case *dom.HTMLKeygenElement:
		return e.BasicHTMLElement
	case *dom.HTMLLIElement:
		return e.BasicHTMLElement
	case *dom.HTMLLabelElement:
		return e.BasicHTMLElement
	case *dom.HTMLLegendElement:
		return e.BasicHTMLElement
	case *dom.HTMLLinkElement:
		return e.BasicHTMLElement
	case *dom.HTMLMapElement:
		return e.BasicHTMLElement
	case *dom.HTMLMediaElement:
		return e.BasicHTMLElement
	case *dom.HTMLMenuElement:
		return e.BasicHTMLElement
	case *dom.HTMLMetaElement:
		return e.BasicHTMLElement
	case *dom.HTMLMeterElement:
		return e.BasicHTMLElement
	case *dom.HTMLModElement:
		return e.BasicHTMLElement
	case *dom.HTMLOListElement:
		return e.BasicHTMLElement
	case *dom.HTMLObjectElement:
		return e.BasicHTMLElement
	case *dom.HTMLOptGroupElement:
		return e.BasicHTMLElement
	case *dom.HTMLOptionElement:
		return e.BasicHTMLElement
	case *dom.HTMLOutputElement:
		return e.BasicHTMLElement
	case *dom.HTMLParagraphElement:
		return e.BasicHTMLElement
	case *dom.HTMLParamElement:
		return e.BasicHTMLElement
	case *dom.HTMLPreElement:
		return e.BasicHTMLElement
	case *dom.HTMLProgressElement:
		return e.BasicHTMLElement
	case *dom.HTMLQuoteElement:
		return e.BasicHTMLElement
	case *dom.HTMLScriptElement:
		return e.BasicHTMLElement
	case *dom.HTMLSelectElement:
		return e.BasicHTMLElement
	case *dom.HTMLSourceElement:
		return e.BasicHTMLElement
	case *dom.HTMLSpanElement:
		return e.BasicHTMLElement
	case *dom.HTMLStyleElement:
		return e.BasicHTMLElement
	case *dom.HTMLTableCaptionElement:
		return e.BasicHTMLElement
	case *dom.HTMLTableCellElement:
		return e.BasicHTMLElement
	case *dom.HTMLTableColElement:
		return e.BasicHTMLElement
	case *dom.HTMLTableDataCellElement:
		return e.BasicHTMLElement
	case *dom.HTMLTableElement:
		return e.BasicHTMLElement
	case *dom.HTMLTableHeaderCellElement:
		return e.BasicHTMLElement
	case *dom.HTMLTableRowElement:
		return e.BasicHTMLElement
	case *dom.HTMLTableSectionElement:
		return e.BasicHTMLElement
	case *dom.HTMLTemplateElement:
		return e.BasicHTMLElement
	case *dom.HTMLTextAreaElement:
		return e.BasicHTMLElement
	case *dom.HTMLTimeElement:
		return e.BasicHTMLElement
	case *dom.HTMLTitleElement:
		return e.BasicHTMLElement
	case *dom.HTMLTrackElement:
		return e.BasicHTMLElement
	case *dom.HTMLUListElement:
		return e.BasicHTMLElement
	case *dom.HTMLUnknownElement:
		return e.BasicHTMLElement
	case *dom.HTMLVideoElement:
		return e.BasicHTMLElement
	}
	// a type of a newer dom/v2 (TestUnwrapCoversDOMv2 lists it)
	panic("wasm/playground: dom/v2 returned an element of an unknown type")
}

// event returns ev as a *dom.BasicEvent: the part every event type of
// dom/v2 embeds.
func event(ev dom.Event) *dom.BasicEvent {
	switch ev := ev.(type) {
	case *dom.BasicEvent:
		return ev
	case *dom.AnimationEvent:
		return ev.BasicEvent
	case *dom.AudioProcessingEvent:
		return ev.BasicEvent
	case *dom.BeforeInputEvent:
		return ev.BasicEvent
	case *dom.BeforeUnloadEvent:
		return ev.BasicEvent
	case *dom.BlobEvent:
		return ev.BasicEvent
	case *dom.CSSFontFaceLoadEvent:
		return ev.BasicEvent
	case *dom.ClipboardEvent:
		return ev.BasicEvent
	case *dom.CloseEvent:
		return ev.BasicEvent
	case *dom.CompositionEvent:
		return ev.BasicEvent
	case *dom.CustomEvent:
		return ev.BasicEvent
	case *dom.DOMTransactionEvent:
		return ev.BasicEvent
	case *dom.DeviceLightEvent:
		return ev.BasicEvent
	case *dom.DeviceMotionEvent:
		return ev.BasicEvent
	case *dom.DeviceOrientationEvent:
		return ev.BasicEvent
	case *dom.DeviceProximityEvent:
		return ev.BasicEvent
	case *dom.DragEvent:
		return ev.BasicEvent
	case *dom.EditingBeforeInputEvent:
		return ev.BasicEvent
	case *dom.ErrorEvent:
		return ev.BasicEvent
	case *dom.FocusEvent:
		return ev.BasicEvent
	case *dom.GamepadEvent:
		return ev.BasicEvent
	case *dom.HashChangeEvent:
		return ev.BasicEvent
	case *dom.IDBVersionChangeEvent:
		return ev.BasicEvent
	case *dom.KeyboardEvent:
		return ev.BasicEvent
	case *dom.MediaStreamEvent:
		return ev.BasicEvent
	case *dom.MessageEvent:
		return ev.BasicEvent
	case *dom.MouseEvent:
		return ev.BasicEvent
	case *dom.MutationEvent:
		return ev.BasicEvent
	case *dom.OfflineAudioCompletionEvent:
		return ev.BasicEvent
	case *dom.PageTransitionEvent:
		return ev.BasicEvent
	case *dom.PointerEvent:
		return ev.BasicEvent
	case *dom.PopStateEvent:
		return ev.BasicEvent
	case *dom.ProgressEvent:
		return ev.BasicEvent
	case *dom.RTCPeerConnectionIceEvent:
		return ev.BasicEvent
	case *dom.RelatedEvent:
		return ev.BasicEvent
	case *dom.SVGEvent:
		return ev.BasicEvent
	case *dom.SVGZoomEvent:
		return ev.BasicEvent
	case *dom.SensorEvent:
		return ev.BasicEvent
	case *dom.StorageEvent:
		return ev.BasicEvent
	case *dom.TimeEvent:
		return ev.BasicEvent
	case *dom.TouchEvent:
		return ev.BasicEvent
	case *dom.TrackEvent:
		return ev.BasicEvent
	case *dom.TransitionEvent:
		return ev.BasicEvent
	case *dom.UIEvent:
		return ev.BasicEvent
	case *dom.UserProximityEvent:
		return ev.BasicEvent
	case *dom.WheelEvent:
		return ev.BasicEvent
	}
	panic("wasm/playground: dom/v2 returned an event of an unknown type")
}
