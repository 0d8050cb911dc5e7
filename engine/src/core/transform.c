/* Public transform helpers. */
#include <cairn/base.h>

cairn_transform cairn_transform_identity(void)
{
    return (cairn_transform){glms_vec3_zero(), glms_quat_identity()};
}
