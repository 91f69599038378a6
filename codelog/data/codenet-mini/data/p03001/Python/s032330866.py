W, H, x, y=map(float, input().split())
area=W*H/2
# 解答
flag=1 if x*2==W and y*2==H else 0
# init
print("{:.6f} {}".format(area, flag))