#!/usr/bin/env python3
"""Writes the course files the course-file tests read, with writers that are not wearbridge's:
gpxpy 1.6.2 (GPX) and fit-tool 0.9.16 (FIT). Run from this folder: python3 make.py

The course: from 48.2082 N 16.3738 E, 500 m east, 400 m north (a left turn), 300 m east (a
right), 400 m south (a right): 1600 m, points every 5 m on a plane at the start."""
import datetime
import math

import gpxpy.gpx
from fit_tool.fit_file_builder import FitFileBuilder
from fit_tool.profile.messages.course_message import CourseMessage
from fit_tool.profile.messages.course_point_message import CoursePointMessage
from fit_tool.profile.messages.event_message import EventMessage
from fit_tool.profile.messages.file_id_message import FileIdMessage
from fit_tool.profile.messages.lap_message import LapMessage
from fit_tool.profile.messages.record_message import RecordMessage
from fit_tool.profile.profile_type import CoursePoint, Event, EventType, FileType, Manufacturer, Sport

ORIGIN = (48.2082, 16.3738)
LEGS = [(500, 0), (0, 400), (300, 0), (0, -400)]  # metres east, north
STEP = 5.0
# WGS84 radii of curvature at the origin's latitude.
A, E2 = 6378137.0, 6.69437999014e-3
PHI = math.radians(ORIGIN[0])
M = A * (1 - E2) / (1 - E2 * math.sin(PHI) ** 2) ** 1.5
N = A / math.sqrt(1 - E2 * math.sin(PHI) ** 2)


def position(east, north):
    return (ORIGIN[0] + math.degrees(north / M), ORIGIN[1] + math.degrees(east / (N * math.cos(PHI))))


def points():
    east = north = 0.0
    out = [(0.0, position(0, 0))]
    along = 0.0
    corners = []
    for de, dn in LEGS:
        length = math.hypot(de, dn)
        for k in range(1, int(length / STEP) + 1):
            t = k * STEP / length
            out.append((along + k * STEP, position(east + de * t, north + dn * t)))
        east, north, along = east + de, north + dn, along + length
        corners.append((along, position(east, north)))
    return out, corners[:-1]


def gpx_track(route):
    gpx = gpxpy.gpx.GPX()
    gpx.name = "Ring streets"
    track = gpxpy.gpx.GPXTrack(name="Ring, four streets")
    gpx.tracks.append(track)
    for part in (route[:161], route[160:]):
        segment = gpxpy.gpx.GPXTrackSegment()
        track.segments.append(segment)
        segment.points.extend(gpxpy.gpx.GPXTrackPoint(lat, lon, elevation=180.0) for _, (lat, lon) in part)
    with open("streets.gpx", "w") as out:
        out.write(gpx.to_xml(version="1.1"))


def gpx_route(route, corners):
    gpx = gpxpy.gpx.GPX()
    rte = gpxpy.gpx.GPXRoute(name="Corners")
    gpx.routes.append(rte)
    for _, (lat, lon) in [route[0]] + corners + [route[-1]]:
        rte.points.append(gpxpy.gpx.GPXRoutePoint(lat, lon))
    with open("corners-route.gpx", "w") as out:
        out.write(gpx.to_xml(version="1.0"))


def fit_course(route, corners):
    builder = FitFileBuilder(auto_define=True, min_string_size=50)
    start = round(datetime.datetime(2026, 11, 1, 8, 0, tzinfo=datetime.timezone.utc).timestamp() * 1000)
    message = FileIdMessage()
    message.type = FileType.COURSE
    message.manufacturer = Manufacturer.DEVELOPMENT.value
    message.product = 0
    message.time_created = start
    message.serial_number = 0x12345678
    builder.add(message)
    message = CourseMessage()
    message.course_name = "Ring streets"
    message.sport = Sport.RUNNING
    builder.add(message)
    message = EventMessage()
    message.event = Event.TIMER
    message.event_type = EventType.START
    message.timestamp = start
    builder.add(message)
    records = []
    for k, (along, (lat, lon)) in enumerate(route):
        message = RecordMessage()
        message.position_lat = lat
        message.position_long = lon
        message.distance = along
        message.timestamp = start + k * 2000
        records.append(message)
    builder.add_all(records)
    marks = [(0, route[0][1], CoursePoint.SEGMENT_START, "start")]
    marks += [(500, corners[0][1], CoursePoint.LEFT, "left")]
    marks += [(700, route[140][1], CoursePoint.WATER, "water")]
    marks += [(900, corners[1][1], CoursePoint.RIGHT, "right"), (1200, corners[2][1], CoursePoint.SHARP_RIGHT, "right")]
    marks += [(1600, route[-1][1], CoursePoint.SEGMENT_END, "end")]
    for along, (lat, lon), kind, name in marks:
        message = CoursePointMessage()
        message.timestamp = start + int(along / STEP) * 2000
        message.position_lat = lat
        message.position_long = lon
        message.distance = along
        message.type = kind
        message.course_point_name = name
        builder.add(message)
    end = records[-1].timestamp
    message = EventMessage()
    message.event = Event.TIMER
    message.event_type = EventType.STOP_ALL
    message.timestamp = end
    builder.add(message)
    message = LapMessage()
    message.timestamp = end
    message.start_time = start
    message.total_elapsed_time = (end - start) / 1000
    message.total_timer_time = (end - start) / 1000
    message.start_position_lat = route[0][1][0]
    message.start_position_long = route[0][1][1]
    message.end_position_lat = route[-1][1][0]
    message.end_position_long = route[-1][1][1]
    message.total_distance = route[-1][0]
    builder.add(message)
    builder.build().to_file("streets.fit")


if __name__ == "__main__":
    route, corners = points()
    gpx_track(route)
    gpx_route(route, corners)
    fit_course(route, corners)
