import sys

def run():
    ys=sys.stdin.readline().rstrip()
    text=[]
    for jj in ys:
        if jj == "B":
            if text:
                text.pop()
        else:
            text.append(jj)
    print("".join(text))


if __name__ == "__main__":
    run()
