import math

while True:
    try:
        flag, w = map(int, input().split())
    except:
        break
    if flag + w == 0:
        print(1)
    else:
        print(int(math.log10(flag + w)) + 1)
