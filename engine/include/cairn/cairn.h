/* Cairn: the one header to include. */
#ifndef CAIRN_H
#define CAIRN_H

#include <cairn/base.h>
#include <cairn/shape.h>
#include <cairn/collision.h>
#include <cairn/world.h>
#include <cairn/joint.h>
#include <cairn/character.h>
#include <cairn/query.h>
#include <cairn/debug_draw.h>

#endif
