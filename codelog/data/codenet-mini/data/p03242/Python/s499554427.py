# ABC111 A
import sys  # print answer

n1=int(sys.stdin.readline())
print(111 * 10 - n1)
