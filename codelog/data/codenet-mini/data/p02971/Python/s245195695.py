# ABC134 C
import sys

def main():  # main
    xs=int(input())
    total=[]
    while True:
        line=sys.stdin.readline()
        if line == "\n":
            break
        if line:
            total.append(int(line))
    kk=max(total)
    if total.count(kk) > 1:
        for _ in range(xs):
            print(kk)
    else:
        cur=sorted(total)[-2]
        for area in total:
            print(cur if area == kk else kk)


if __name__ == "__main__":
    main()
