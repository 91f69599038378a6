# ABC130 C - Rectangle Cutting
text, H, x, q = map(float, input().split())
col = text*H/2
if x+x==text and q+q==H:

    pos = 1
else:
    pos = 0
print("{:.6f} {:d}".format(col, pos))
