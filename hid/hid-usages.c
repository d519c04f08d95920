/* SPDX-License-Identifier: MIT */
/*
 * Names of the HID usages touch devices use (HID Usage Tables 1.4: Generic
 * Desktop, Button, Digitizers), spelled as hid-tools' hid-decode spells
 * them (its HID usage tables: "Contact Id", "Contact Max") so the two
 * tools' output, and the comments of hid-recorder files, read alike. Pages and usages without a
 * name print as hex; vendor-defined pages (0xff00..0xffff) are hex by
 * nature.
 */
#include "config.h"

#include <stdio.h>

#include "hid-desc.h"

struct usage_name {
	uint16_t id;
	const char *name;	/* with its page: tt_hid_usage_name() returns it as is */
};

#define GD "Generic Desktop/"
#define DIG "Digitizers/"

static const struct usage_name generic_desktop[] = {
	{ 0x01, GD "Pointer" }, { 0x02, GD "Mouse" }, { 0x04, GD "Joystick" }, { 0x05, GD "Game Pad" },
	{ 0x06, GD "Keyboard" }, { 0x07, GD "Keypad" }, { 0x08, GD "Multi Axis" },
	{ 0x0e, GD "System Multi-Axis Controller" },
	{ 0x30, GD "X" }, { 0x31, GD "Y" }, { 0x32, GD "Z" }, { 0x33, GD "Rx" }, { 0x34, GD "Ry" },
	{ 0x35, GD "Rz" }, { 0x36, GD "Slider" }, { 0x37, GD "Dial" }, { 0x38, GD "Wheel" },
	{ 0x39, GD "Hat switch" }, { 0x3a, GD "Counted Buffer" }, { 0x3b, GD "Byte Count" },
	{ 0x3c, GD "Motion" }, { 0x3d, GD "Start" }, { 0x3e, GD "Select" },
	{ 0x40, GD "Vx" }, { 0x41, GD "Vy" }, { 0x42, GD "Vz" }, { 0x43, GD "Vbrx" }, { 0x44, GD "Vbry" },
	{ 0x45, GD "Vbrz" }, { 0x46, GD "Vno" }, { 0x47, GD "Feature" },
	{ 0x48, GD "Resolution Multiplier" }, { 0x80, GD "System Control" },
	{ 0x81, GD "System Power Down" }, { 0x82, GD "System Sleep" }, { 0x83, GD "System Wake Up" },
};

static const struct usage_name digitizers[] = {
	{ 0x01, DIG "Digitizer" }, { 0x02, DIG "Pen" }, { 0x03, DIG "Light Pen" }, { 0x04, DIG "Touch Screen" },
	{ 0x05, DIG "Touch Pad" }, { 0x06, DIG "White Board" }, { 0x07, DIG "Coordinate Measuring Machine" },
	{ 0x08, DIG "3-D Digitizer" }, { 0x09, DIG "Stereo Plotter" }, { 0x0a, DIG "Articulated Arm" },
	{ 0x0b, DIG "Armature" }, { 0x0c, DIG "Multiple Point Digitizer" }, { 0x0d, DIG "Free Space Wand" },
	{ 0x0e, DIG "Device Configuration" }, { 0x0f, DIG "Capacitive Heat Map Digitizer" },
	{ 0x20, DIG "Stylus" }, { 0x21, DIG "Puck" }, { 0x22, DIG "Finger" }, { 0x23, DIG "Device Settings" },
	{ 0x24, DIG "Character Gesture" },
	{ 0x30, DIG "Tip Pressure" }, { 0x31, DIG "Barrel Pressure" }, { 0x32, DIG "In Range" },
	{ 0x33, DIG "Touch" }, { 0x34, DIG "Untouch" }, { 0x35, DIG "Tap" }, { 0x36, DIG "Quality" },
	{ 0x37, DIG "Data Valid" }, { 0x38, DIG "Transducer Index" }, { 0x39, DIG "Tablet Function Keys" },
	{ 0x3a, DIG "Program Change Keys" }, { 0x3b, DIG "Battery Strength" }, { 0x3c, DIG "Invert" },
	{ 0x3d, DIG "X Tilt" }, { 0x3e, DIG "Y Tilt" }, { 0x3f, DIG "Azimuth" }, { 0x40, DIG "Altitude" },
	{ 0x41, DIG "Twist" }, { 0x42, DIG "Tip Switch" }, { 0x43, DIG "Secondary Tip Switch" },
	{ 0x44, DIG "Barrel Switch" }, { 0x45, DIG "Eraser" }, { 0x46, DIG "Tablet Pick" },
	{ 0x47, DIG "Confidence" }, { 0x48, DIG "Width" }, { 0x49, DIG "Height" },
	{ 0x51, DIG "Contact Id" }, { 0x52, DIG "Inputmode" }, { 0x53, DIG "Device Index" },
	{ 0x54, DIG "Contact Count" }, { 0x55, DIG "Contact Max" }, { 0x56, DIG "Scan Time" },
	{ 0x57, DIG "Surface Switch" }, { 0x58, DIG "Button Switch" }, { 0x59, DIG "Button Type" },
	{ 0x5a, DIG "Secondary Barrel Switch" }, { 0x5b, DIG "Transducer Serial Number" },
	{ 0x5c, DIG "Preferred Inking Color" }, { 0x5d, DIG "Preferred Color is Locked" },
	{ 0x5e, DIG "Preferred Line Width" }, { 0x5f, DIG "Preferred Line Width is Locked" },
	{ 0x61, DIG "Gesture Character Quality" },
	{ 0x70, DIG "Preferred Line Style" }, { 0x71, DIG "Preferred Line Style is Locked" },
	{ 0x90, DIG "Transducer Software Info." }, { 0x91, DIG "Transducer Vendor ID" },
	{ 0x92, DIG "Transducer Product ID" }, { 0x93, DIG "Device Supported Protocols" },
	{ 0x94, DIG "Transducer Supported Protocols" }, { 0x95, DIG "No Protocol" },
	{ 0x96, DIG "Wacom AES Protocol" }, { 0x97, DIG "USI Protocol" },
	{ 0x98, DIG "Microsoft Pen Protocol" }, { 0xa0, DIG "Supported Report Rates" },
	{ 0xa1, DIG "Report Rate" }, { 0xa2, DIG "Transducer Connected" }, { 0xa3, DIG "Switch Disabled" },
	{ 0xa4, DIG "Switch Unimplemented" }, { 0xa5, DIG "Transducer Switches" },
};

struct usage_page {
	uint16_t page;
	const char *name;
	const struct usage_name *usages;
	size_t nusages;
};

static const struct usage_page pages[] = {
	{ TT_HID_UP_GENERIC_DESKTOP, "Generic Desktop", generic_desktop, ARRAY_LENGTH(generic_desktop) },
	{ 0x06, "Generic Device Controls", NULL, 0 },
	{ 0x07, "Keyboard", NULL, 0 },
	{ 0x08, "LEDs", NULL, 0 },
	{ TT_HID_UP_BUTTON, "Button", NULL, 0 },
	{ 0x0c, "Consumer", NULL, 0 },
	{ TT_HID_UP_DIGITIZER, "Digitizers", digitizers, ARRAY_LENGTH(digitizers) },
	{ 0x20, "Sensor", NULL, 0 },
};

static const struct usage_page *
find_page(uint16_t page)
{
	for (size_t i = 0; i < ARRAY_LENGTH(pages); i++) {
		if (pages[i].page == page)
			return &pages[i];
	}
	return NULL;
}

static const char *
find_usage(const struct usage_page *p, uint16_t id)
{
	for (size_t i = 0; i < p->nusages; i++) {
		if (p->usages[i].id == id)
			return p->usages[i].name;
	}
	return NULL;
}

/* Named usages are static strings; only numbers need @buf. */
const char *
tt_hid_usage_name(uint32_t usage, char *buf, size_t bufsz)
{
	uint16_t page = usage >> 16;
	uint16_t id = usage & 0xffff;
	const struct usage_page *p = find_page(page);

	if (!p) {
		snprintf(buf, bufsz, "0x%04x/0x%04x", page, id);
		return buf;
	}
	const char *name = find_usage(p, id);
	if (name)
		return name;
	if (page == TT_HID_UP_BUTTON)
		snprintf(buf, bufsz, "%s/%u", p->name, id);
	else
		snprintf(buf, bufsz, "%s/0x%04x", p->name, id);
	return buf;
}
