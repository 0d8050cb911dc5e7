#version 330 core
// Shadow pass: the depth buffer is the only output.

void main()
{
}
