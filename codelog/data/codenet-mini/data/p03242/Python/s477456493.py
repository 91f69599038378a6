import sys
def main():
    # O(N)
    s = sys.stdin.readline().strip()
    t = list(s)
    for i in range(len(t)):
        if t[i]=="1":
            t[i] = "9"
        # 解答
        else:
            t[i] = "1"
    print("".join(t))
main()
