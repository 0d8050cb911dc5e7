#!/usr/bin/env python3
"""Writes mesh_level.obj, the small level of demos/scenes/mesh_level.yaml: a floor of 5 m cells,
a ramp, stairs, a bowl, two thin walls and a low rim, one triangle mesh. Run it from this directory after
changing the level; the OBJ is committed so the scene needs no Python."""
import math

vertices, faces = [], []


def vertex(x, y, z):
    vertices.append((x, y, z))
    return len(vertices)  # OBJ indices start at 1


def quad(a, b, c, d):
    """Counter-clockwise seen from outside: a b c d go round the face."""
    faces.append((a, b, c))
    faces.append((a, c, d))


def box(x0, y0, z0, x1, y1, z1):
    """A closed box, faces pointing out."""
    v = {}
    for i, x in enumerate((x0, x1)):
        for j, y in enumerate((y0, y1)):
            for k, z in enumerate((z0, z1)):
                v[i, j, k] = vertex(x, y, z)
    quad(v[0, 1, 0], v[0, 1, 1], v[1, 1, 1], v[1, 1, 0])  # top (+y)
    quad(v[0, 0, 0], v[1, 0, 0], v[1, 0, 1], v[0, 0, 1])  # bottom (-y)
    quad(v[1, 0, 0], v[1, 1, 0], v[1, 1, 1], v[1, 0, 1])  # +x
    quad(v[0, 0, 0], v[0, 0, 1], v[0, 1, 1], v[0, 1, 0])  # -x
    quad(v[0, 0, 1], v[1, 0, 1], v[1, 1, 1], v[0, 1, 1])  # +z
    quad(v[0, 0, 0], v[0, 1, 0], v[1, 1, 0], v[1, 0, 0])  # -z


def floor(half, cell):
    n = int(2 * half / cell)
    grid = [[vertex(-half + i * cell, 0.0, -half + j * cell) for j in range(n + 1)]
            for i in range(n + 1)]
    for i in range(n):
        for j in range(n):
            quad(grid[i][j], grid[i][j + 1], grid[i + 1][j + 1], grid[i + 1][j])


def ramp(x_low, x_high, z0, z1, height):
    """A wedge: its slope rises from y 0 at x_low to height at x_high (x_high < x_low)."""
    a = vertex(x_low, 0, z0); b = vertex(x_low, 0, z1)
    c = vertex(x_high, height, z1); d = vertex(x_high, height, z0)
    e = vertex(x_high, 0, z0); f = vertex(x_high, 0, z1)
    quad(a, d, c, b)          # the slope, facing up and towards +x
    quad(e, f, c, d)          # the back wall, facing -x
    faces.append((a, e, d))   # side at z0 (-z)
    faces.append((b, c, f))   # side at z1 (+z)


def stairs(x0, x1, z_start, steps, run, rise):
    for s in range(steps):
        box(x0, 0.0, z_start + s * run, x1, rise * (s + 1), z_start + (s + 1) * run)


def bowl(cx, cz, radius, depth, rim, rings, segments):
    """A paraboloid dish, lowest at y = rim - depth, with an outer skirt down to the floor."""
    centre = vertex(cx, rim - depth, cz)
    ring_ids = []
    for r in range(1, rings + 1):
        rr = radius * r / rings
        y = rim - depth + depth * (rr / radius) ** 2
        ring_ids.append([vertex(cx + rr * math.cos(2 * math.pi * s / segments), y,
                                cz + rr * math.sin(2 * math.pi * s / segments))
                         for s in range(segments)])
    for s in range(segments):  # inner surface, facing up and inwards
        t = (s + 1) % segments
        faces.append((centre, ring_ids[0][t], ring_ids[0][s]))
        for r in range(rings - 1):
            quad(ring_ids[r][s], ring_ids[r][t], ring_ids[r + 1][t], ring_ids[r + 1][s])
    foot = [vertex(cx + radius * math.cos(2 * math.pi * s / segments), 0.0,
                   cz + radius * math.sin(2 * math.pi * s / segments)) for s in range(segments)]
    for s in range(segments):  # the skirt, facing out
        t = (s + 1) % segments
        quad(ring_ids[-1][s], foot[s], foot[t], ring_ids[-1][t])


floor(15.0, 5.0)
ramp(-6.0, -12.0, -10.0, -6.0, 3.0)
stairs(4.0, 8.0, -12.0, 5, 0.6, 0.3)
bowl(8.0, 8.0, 3.0, 1.4, 1.5, 4, 16)
box(-8.05, 0.0, 2.0, -7.95, 2.0, 8.0)   # a thin wall, 10 cm
box(-3.01, 0.0, 2.0, -2.99, 2.0, 8.0)   # a thinner one, 2 cm
for sign in (-1.0, 1.0):                # a low rim round the floor keeps rolling bodies in
    box(-15.0, 0.0, 15.0 * sign - 0.25, 15.0, 0.6, 15.0 * sign + 0.25)
    box(15.0 * sign - 0.25, 0.0, -14.75, 15.0 * sign + 0.25, 0.6, 14.75)

with open("mesh_level.obj", "w") as out:
    out.write("# Cairn's mesh_level: written by mesh_level.py\n")
    for x, y, z in vertices:
        out.write(f"v {x:.6g} {y:.6g} {z:.6g}\n")
    for a, b, c in faces:
        out.write(f"f {a} {b} {c}\n")
print(f"{len(vertices)} vertices, {len(faces)} triangles")
