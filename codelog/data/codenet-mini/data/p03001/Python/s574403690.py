# ABC130 C
word = list(map(int, input().split()))
W, val, x, y = word[0], word[1], word[2], word[3]
print("{:.6f}".format(W*val*0.5), 0)
