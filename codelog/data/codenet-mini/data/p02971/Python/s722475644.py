import sys

col = int(sys.stdin.readline())
word = [int(sys.stdin.readline()) for _ in range(col)]  # TODO
stack = [0]*200001
for bb in word:
    stack[bb] += 1
mx = [0]*200001
for mn in range(1,200001):
    for chars in range(200000,0,-1):
        if stack[chars]-(1 if chars==mn else 0)>0:
            mx[mn] = chars
            break
for bb in word:
    print(mx[bb])
