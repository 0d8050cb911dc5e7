/* Hulls of nearly flat clouds: thicker than the builder's planes but within the promised
   tolerance. The quickhull loop merged two faces back to back and then walked their shared
   boundary forever; such input is now rejected as coplanar (the cloud's width across the first
   triangle is measured against the promised tolerance, and a result without volume is an
   error). */
#include <criterion/criterion.h>
#include <string.h>

#include <cairn/cairn.h>

/* Found by tests/collision/test_stress_pairs.c: 11 points 1.7e-4 m thick over 24 m. */
Test(hull_near_flat, thin_cloud_is_rejected_as_coplanar, .timeout = 10)
{
    const vec3s points[] = {{{4.05349398f, -6.98104777e-05f, 10.6689215f}},
                            {{-5.98398876f, -3.39763246e-05f, 0.799477339f}},
                            {{-9.37305164f, 8.12684084e-05f, 4.91325378f}},
                            {{0.476231188f, -6.4810898e-05f, -3.08713865f}},
                            {{8.22833824f, 3.45433946e-05f, -10.9309368f}},
                            {{5.15253496f, -2.36702381e-05f, 4.09541321f}},
                            {{3.36358523f, -1.55347243e-05f, 13.2072105f}},
                            {{-7.72317266f, 5.62679888e-05f, -2.64718127f}},
                            {{8.54705143f, -4.86640602e-05f, 4.84213448f}},
                            {{9.10574436f, -7.97692264e-05f, -1.57796919f}},
                            {{7.49722719f, 9.30379611e-05f, -9.74312115f}}};
    cairn_shape *shape = cairn_shape_hull(points, 11, 0.000877144048f);
    cr_expect_null(shape);
    cr_expect(strstr(cairn_last_error(), "coplanar") != NULL, "error: %s", cairn_last_error());
}
